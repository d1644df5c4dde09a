# Reading the firmware's settings: firmware/config.py (the maker's file) and the limits the
# firmware's own config check enforces, so the rules check the hardware against exactly what
# the firmware will do.
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
DEFAULT_CONFIG = os.path.join(FIRMWARE, "config.py")
CONFIG_CHECK = os.path.join(FIRMWARE, "drivers", "config_check.py")
if FIRMWARE not in sys.path:       # the config check asks the firmware which languages it has
    sys.path.append(FIRMWARE)


class ConfigError(Exception):
    """config.py cannot be read: the message says why, in one line."""


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_config(path=DEFAULT_CONFIG):
    if not os.path.isfile(path):
        raise ConfigError("%s: no such file" % path)
    try:
        cfg = _load("barragoon_config_for_circuit", path)
    except Exception as e:           # a maker's syntax error: say where, without a traceback
        raise ConfigError("%s: cannot be read (%s: %s)" % (path, type(e).__name__, e))
    check = _load("barragoon_config_check_for_circuit", CONFIG_CHECK)
    try:
        check.check(cfg)
    except ValueError as e:
        raise ConfigError(str(e))
    return cfg


def power_limits():
    """LED_CURRENT_BUDGET_MA allowed per POWER_SUPPLY (drivers/config_check.py)."""
    return dict(_load("barragoon_config_check_for_circuit", CONFIG_CHECK).POWER_LIMITS)
