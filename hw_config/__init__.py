"""Board profiles and layouts (TOML), validated with every problem named by file and key."""

from hw_config.problems import ConfigError, Problem
from hw_config.profile import Needs, Profile, load_profile

__all__ = ["ConfigError", "Needs", "Problem", "Profile", "load_profile"]
