"""The atlas's execution layer: its jobs as Dask tasks (:mod:`.tasks`) and their options (:mod:`.options`), their content-addressed result cache (:mod:`.cache`, keys of a row's profile in :mod:`.profile_keys`) and cells run through both (:mod:`.cells`).

Room 2 of the atlas (layer 8): may import layers 0-7 and ``atlas.adapters``; the grid (``atlas``'s own
level) and the disagreement study hand it module-level functions to run.  Dask (``dask.distributed``)
is imported only when a run starts; without it a run stops with one line saying how to install it.
"""
