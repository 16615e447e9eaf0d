"""The published methods toolplay reproduces, one folder each: ToolSandbox, ToolTalk, AutoDE.

Each method is shaped like a plugin: a `register(catalog)` adding its suites, importers,
modes, scorer and roles through the same `Catalog.add_*` calls an outside plugin uses, and a
README (the paper, what is reproduced, what deliberately differs, the commands). The core
packages never import this one (a test checks); `toolplay.builtin` calls the three
`register` functions.
"""
