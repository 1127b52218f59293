"""Refuse and record every connection and name lookup that leaves this machine (loopback only).

Python imports `sitecustomize` at start-up from its path, so every Python process started with
this folder on PYTHONPATH and NETWORK_GUARD_LOG set (the app, the CLI, their own children) runs
guarded. The guard is an audit hook: it sees what the `socket` module does on behalf of any
library (requests, httpx, aiohttp, urllib, nltk's downloader), refuses it with the error an
unreachable network gives, and appends one JSON line per attempt to NETWORK_GUARD_LOG.
uvloop (the judge transport's event loop) looks names up and connects in libuv, out of the hook's
sight, so its loop's `getaddrinfo` and `create_connection` are checked the same way. Other native
code opening its own sockets is not seen.
"""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import sys
import traceback

_LOG = os.environ.get("NETWORK_GUARD_LOG")
_LOCAL_NAMES = {None, "", "localhost", "localhost.localdomain", "ip6-localhost"}


def _is_local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if host in _LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return False  # a name other than localhost: looking it up would ask a DNS server


def _record(event: str, target: object) -> None:
    line = {"pid": os.getpid(), "event": event, "target": repr(target), "argv": sys.argv[:3],
            "stack": traceback.format_stack(limit=12)[:-2]}
    with open(_LOG, "a", encoding="utf-8") as log:  # type: ignore[arg-type]
        log.write(json.dumps(line) + "\n")


def _check_lookup(host: object, port: object) -> None:
    if not _is_local(host):
        _record("getaddrinfo", (host, port))
        raise socket.gaierror(socket.EAI_NONAME, f"network guard: no lookup of {host!r} from this test")


def _check_connect(address: object, event: str = "connect") -> None:
    if isinstance(address, tuple) and not _is_local(address[0]):
        _record(event, address[:2])
        raise ConnectionRefusedError(f"network guard: no connection to {address[:2]!r} from this test")


def _guard(event: str, args: tuple) -> None:
    if event == "socket.getaddrinfo":
        _check_lookup(args[0], args[1])
    elif event in ("socket.connect", "socket.sendto", "socket.sendmsg") and len(args) > 1:
        _check_connect(args[1], event.removeprefix("socket."))


def _guard_uvloop() -> None:
    try:
        import uvloop
    except ImportError:
        return
    lookup, connect = uvloop.Loop.getaddrinfo, uvloop.Loop.create_connection

    async def getaddrinfo(self, host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        _check_lookup(host, port)
        return await lookup(self, host, port, *args, **kwargs)

    async def create_connection(self, protocol_factory, host=None, port=None, *args, **kwargs):  # type: ignore[no-untyped-def]
        if host is not None:
            _check_connect((host, port))
        return await connect(self, protocol_factory, host, port, *args, **kwargs)

    uvloop.Loop.getaddrinfo, uvloop.Loop.create_connection = getaddrinfo, create_connection


if _LOG:
    sys.addaudithook(_guard)
    _guard_uvloop()
