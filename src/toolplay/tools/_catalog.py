"""A catalog of tool domains: the domains and groups a run may use, and their registries.

A `ToolCatalog` is an object, built once per run (by `toolplay.catalog.build_catalog`) and
passed down; nothing here is global. It builds one `Registry` per distinct list of domains (and
of API-only tool schemas, `toolplay.tools._api_only`, which a scenario may declare besides its
domains) and keeps it (registries are immutable), so resolving the tools of 2,848 scenarios over
the same domains, or of AutoDE's 276 dialogues over 66 APIs, costs one build per distinct set.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toolplay.tools._api_only import with_api_tools
from toolplay.tools._errors import RegistryError
from toolplay.tools._registry import Domain, Registry, build_registry


class ToolCatalog:
    """Domains and domain groups by name (groups are usable wherever a domain name is)."""

    def __init__(self) -> None:
        self._domains: dict[str, Domain] = {}
        self._groups: dict[str, tuple[str, ...]] = {}
        self._registries: dict[tuple[str, ...], Registry] = {}
        self._with_apis: dict[tuple[tuple[str, ...], str], Registry] = {}

    @property
    def domains(self) -> Mapping[str, Domain]:
        """Every domain by name, in registration order."""
        return self._domains

    @property
    def groups(self) -> Mapping[str, tuple[str, ...]]:
        """Every domain group by name: its member domains."""
        return self._groups

    def add_domain(self, domain: Domain) -> None:
        """Register a domain; a second domain of the same name is refused."""
        if domain.name in self._domains or domain.name in self._groups:
            raise RegistryError(f"domain {domain.name!r} is registered twice")
        self._domains[domain.name] = domain
        self._registries.clear()
        self._with_apis.clear()

    def add_group(self, name: str, members: Sequence[str]) -> None:
        """Register a name standing for several domains (e.g. `sandbox`)."""
        if name in self._domains or name in self._groups:
            raise RegistryError(f"domain group {name!r} is registered twice")
        self._groups[name] = tuple(members)
        self._registries.clear()
        self._with_apis.clear()

    def expand(self, names: Iterable[str]) -> tuple[str, ...]:
        """Domain names with groups replaced by their members, duplicates dropped, order kept."""
        expanded: list[str] = []
        for name in names:
            expanded.extend(self._groups.get(name, (name,)))
        return tuple(dict.fromkeys(expanded))

    def registry(
        self, names: Iterable[str], api_only: Sequence[Mapping[str, Any]] = ()
    ) -> Registry:
        """The registry of the named domains or groups, plus the API-only tools of `api_only`.

        Args:
            names: Domain or group names; unknown names fail with the known ones.
            api_only: OpenAI function schemas of tools with no implementation (a call is
                checked against the schema and recorded, `toolplay.tools._api_only`).

        Raises:
            RegistryError: An unknown domain, an unusable schema, or a tool name twice.
        """
        wanted = self.expand(names)
        if not api_only:
            return self._domains_registry(wanted)
        key = (wanted, json.dumps(list(api_only), sort_keys=True, default=str))
        found = self._with_apis.get(key)
        if found is None:
            found = with_api_tools(self._domains_registry(wanted), api_only)
            self._with_apis[key] = found
        return found

    def _domains_registry(self, wanted: tuple[str, ...]) -> Registry:
        found = self._registries.get(wanted)
        if found is None:
            missing = [n for n in wanted if n not in self._domains]
            if missing:
                known = sorted(self._domains) + sorted(self._groups)
                raise RegistryError(f"unknown domain(s) {missing}; known: {known}")
            found = build_registry(self._domains[n] for n in wanted)
            self._registries[wanted] = found
        return found
