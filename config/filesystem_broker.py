"""The embedded Celery broker: kombu's filesystem transport with atomic writes.

kombu's own transport creates the message file and then writes it, so a
polling worker can move and read an empty file (and crash its consumer).
Writing under a temporary name and renaming makes each message appear whole.
"""

import os
import uuid
from time import monotonic

from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

SCHEME = "safefs"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.part"  # never matches the '<queue>.msg' a reader looks for
        with open(partial, "wb") as f:
            f.write(str_to_bytes(dumps(payload)))
        os.replace(partial, final)


class Transport(filesystem.Transport):
    Channel = Channel


TRANSPORT_ALIASES.setdefault(SCHEME, "config.filesystem_broker:Transport")
