"""The test settings as the `live` process runs them (config.live_settings)."""

from tests.settings import *  # noqa: F401,F403
from config.live_settings import MIDDLEWARE, ROOT_URLCONF, SILENCED_SYSTEM_CHECKS  # noqa: F401
