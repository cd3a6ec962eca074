"""Reports made from audit results and reference values: the HTML report and the paper's tables.

Layer 7 of 9 (see docs/architecture.md): may import every layer below it (shared modules,
``scenarios``, ``evaluators``, ``testing``, ``reference``, ``auditing``, ``plots``); never a front end.

* :mod:`.html_report` and :mod:`.html_parts` -- the self-contained HTML report of a profile;
* :mod:`.reproduce` -- Tables A1, C1 and C2 recomputed and compared with the printed values;
* :mod:`.smd_tables`, :mod:`.smd_render` -- the SMD rows of Tables 6-8 recomputed from the authors' slice,
  the rankings, a user's column; :mod:`.smd_section` -- their section of the HTML report;
* :mod:`.score_table5` -- the score evaluators' Table 5 rows, computed by auditing them, stored in
  ``reference_results/`` and rendered into docs/properties.md by :mod:`.properties_doc`.
"""
