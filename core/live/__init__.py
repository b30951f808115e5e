"""Live pages by push (server-sent events).

- `publish` (publish.py): a change is announced once, after its commit, on a channel per
  object ("match:12", "tournament:3", "pool:silkroad", "user:7", "matches").
- backends.py: how the announcement travels between processes: Redis pub/sub when
  REDIS_URL is set, else a table every web process reads (one query per process).
- feeds.py: what a page subscribes to (a feed), who may read it, which readers share a
  render (the audience key), and how a reader at one version is brought to the next.
- hub.py: per web process, the readers of each feed grouped by audience; one render per
  group and version, written to every reader of the group.
- stream.py: the ASGI endpoint `/events/` (config/asgi.py routes to it).
"""
