"""Bridges from toolplay to other evaluation frameworks (optional extras, imported only here).

`toolplay.integrations.inspect` runs toolplay's suites inside Inspect AI (`toolplay[inspect]`).
Nothing else in toolplay imports this package, so an extra that is not installed costs nothing.
"""
