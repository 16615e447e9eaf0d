"""A plugin whose mode ends the process playing `quick_wifi_on` (a worker lost on every try).

Only for runs on Ray workers: with the local executor it would end the test process itself.
"""

from __future__ import annotations

import os

from toolplay.catalog import Catalog
from toolplay.conversation import Mode, PlayRequest, play_dynamic
from toolplay.messages import Trajectory


async def fatal(request: PlayRequest) -> Trajectory:
    if request.setup.scenario.id == "quick_wifi_on":
        os._exit(1)  # as if the node went away mid-trial
    return await play_dynamic(request)


def register(catalog: Catalog) -> None:
    catalog.add_mode(Mode("fatal", fatal, "dynamic, ending its process on quick_wifi_on"))
