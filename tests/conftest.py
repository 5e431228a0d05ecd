import os

from hypothesis import settings

# CI runs on 2 slow cores: keep property tests deterministic and bounded there.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=100)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
