"""Rule systems: the plug-in contract and the registry."""

from jdr.systems.protocol import (
    Action,
    Advice,
    Advisor,
    FightRules,
    Json,
    Odds,
    Record,
    RuleSystem,
    System,
    display_name,
)
from jdr.systems.registry import (
    ENTRY_POINT_GROUP,
    PluginError,
    Registry,
    default_registry,
    set_default_registry,
)

__all__ = [
    "ENTRY_POINT_GROUP",
    "Action",
    "Advice",
    "Advisor",
    "FightRules",
    "Json",
    "Odds",
    "PluginError",
    "Record",
    "Registry",
    "RuleSystem",
    "System",
    "default_registry",
    "display_name",
    "set_default_registry",
]
