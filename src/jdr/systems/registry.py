"""The registry of rule systems, fed by the entry-point group `jdr.systems`.

Built-ins register there exactly as a third-party package would; nothing is imported until a system
is asked for, so `jdr --help` stays fast.

>>> from jdr.systems.protocol import System
>>> registry = Registry({"coin": System("coin", {"en": "Coin"})})
>>> registry.ids()
['coin']
>>> registry.get("coin").id
'coin'

Systems are named as people type them (`jdr.names`): case, accents, spaces, `_` and `-` aside.

>>> registry.find("COIN"), registry.find("dice")
('coin', None)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib.metadata import EntryPoint, entry_points

from jdr.errors import JdrError
from jdr.i18n import Catalog, _, add_catalog
from jdr.systems.protocol import RuleSystem

ENTRY_POINT_GROUP = "jdr.systems"
RESERVED_OPTIONS = frozenset(
    {
        "faces",
        "seed",
        "json",
        "lang",
        "exact",
        "help",
        "campaign",
        "actor",
        "action_id",
        "client_seed",
        "hidden",
        "db",
    }
)
"""Options every command has: an action's parameter model may not use these names."""


class PluginError(JdrError):
    """A registered system that cannot be loaded or does not keep the contract."""

    code = "plugin"

    def __init__(self, system_id: str, problem: str) -> None:
        self.system_id = system_id
        self.problem = problem
        super().__init__(f"{system_id}: {problem}")

    def message(self) -> str:
        return _("rule system {id} cannot be used: {problem}").format(
            id=self.system_id, problem=self.problem
        )


class Registry:
    """Systems by id: given directly (tests, an application) or found through entry points."""

    def __init__(
        self,
        systems: Mapping[str, RuleSystem] | None = None,
        points: Iterable[EntryPoint] | None = None,
    ) -> None:
        self._loaded: dict[str, RuleSystem] = dict(systems or {})
        for system in self._loaded.values():
            add_messages(system)
        self._points: dict[str, EntryPoint] = {}
        for point in points or ():
            self._points.setdefault(point.name, point)

    @classmethod
    def from_entry_points(cls) -> Registry:
        return cls(points=entry_points(group=ENTRY_POINT_GROUP))

    def ids(self) -> list[str]:
        return sorted(set(self._loaded) | set(self._points))

    def find(self, name: str) -> str | None:
        """The id of the system `name` stands for (`Pokémon`, `plus_ultra`), or None."""
        from jdr.names import find

        return find(name, self.ids(), _("system"))

    def get(self, system_id: str) -> RuleSystem:
        """The system `system_id` names (loosely, see `find`), loaded on first use;
        `UnknownNameError` with the closest id and the known ones."""
        from jdr.names import match

        key = match(_("system"), system_id, self.ids())
        if key in self._loaded:
            return self._loaded[key]
        point = self._points[key]
        try:
            system = point.load()
        except Exception as exc:  # a broken plug-in must not crash the tool
            raise PluginError(key, f"{type(exc).__name__}: {exc}") from exc
        check_system(key, system)
        add_messages(system)
        self._loaded[key] = system
        return system  # type: ignore[no-any-return]

    def all(self) -> list[RuleSystem]:
        return [self.get(system_id) for system_id in self.ids()]


def check_system(key: str, system: object) -> None:
    """Refuse an object that does not keep the `RuleSystem` contract, saying what is missing."""
    if not isinstance(system, RuleSystem):
        missing = [
            name
            for name in ("id", "names", "actions", "sheet", "fight", "commands")
            if not hasattr(system, name)
        ]
        raise PluginError(key, "missing " + ", ".join(missing))
    if system.id != key:
        raise PluginError(key, f"registered as {key!r} but its id is {system.id!r}")
    messages = getattr(system, "messages", None)
    if messages is not None and not isinstance(messages, Catalog):
        raise PluginError(key, "its messages are not a catalog (jdr.i18n.Messages, GettextCatalog)")
    for name, action in system.actions.items():
        if action.name != name:
            raise PluginError(key, f"action {name!r} is named {action.name!r}")
        models = [action.params] + ([action.advise.params] if action.advise else [])
        for model in models:
            clash = RESERVED_OPTIONS & set(model.model_fields)
            if clash:
                raise PluginError(
                    key, f"action {name!r} uses reserved option names {sorted(clash)}"
                )


def add_messages(system: object) -> None:
    """Make the system's own words (`System.messages`) available to `jdr.i18n`."""
    messages = getattr(system, "messages", None)
    if messages is not None:
        add_catalog(messages)


_default: Registry | None = None


def default_registry() -> Registry:
    """The process-wide registry from installed entry points (built once)."""
    global _default  # noqa: PLW0603 - one registry per process, built lazily
    if _default is None:
        _default = Registry.from_entry_points()
    return _default


def set_default_registry(registry: Registry | None) -> None:
    """Replace the process-wide registry (tests, embedding applications); None rebuilds it."""
    global _default  # noqa: PLW0603
    _default = registry
