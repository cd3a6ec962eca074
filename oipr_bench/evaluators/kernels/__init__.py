"""Block-streamed NumPy kernels behind the public evaluators (one module per evaluator).

Room 1 of the evaluators (layer 2): may import layers 0-1 only; nothing else of ``evaluators``.
"""
