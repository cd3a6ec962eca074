"""The profile: an audit session, its results, their text form and JSON report, reference comparison, sanity checks, verify.

Room 6 of the audit core (layer 5), its top: may import layers 0-4 and every other room of ``auditing``.
"""
