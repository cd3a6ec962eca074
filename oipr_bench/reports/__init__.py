"""Reports made from audit results and reference values: the HTML report and the paper's tables.

Layer 7 of 9 (see docs/architecture.md): may import every layer below it (shared modules,
``scenarios``, ``evaluators``, ``testing``, ``reference``, ``auditing``, ``plots``); never a front end.

* :mod:`.html_report` and :mod:`.html_parts` -- the self-contained HTML report of a profile;
* :mod:`.reproduce` -- Tables A1, C1 and C2 recomputed and compared with the printed values.
"""
