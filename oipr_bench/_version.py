"""Single source of the package version."""

__version__ = "0.4.0"

#: The version of oipr-bench's readings: what an audit or a real-data cell computes from the same
#: metric and the same input.  It changes only when a reading changes (a rule, a case, a protocol),
#: never with a release that leaves every reading as it was; the atlas's result cache
#: (:mod:`oipr_bench.atlas.running.cache`) keys every entry with it, so entries of other readings
#: are never read as results.
READING_VERSION = 2
