"""Refuse and record every connection and name lookup that leaves this machine (loopback only).

Python imports `sitecustomize` at start-up from its path, so every Python process started with
this folder on PYTHONPATH and NETWORK_GUARD_LOG set (the app, the CLI, their own children) runs
guarded. The guard is an audit hook: it sees what the `socket` module does on behalf of any
library (requests, httpx, aiohttp, urllib, nltk's downloader), refuses it with the error an
unreachable network gives, and appends one JSON line per attempt to NETWORK_GUARD_LOG.
A process that opens sockets outside Python (a native library's own resolver) is not seen.
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


def _guard(event: str, args: tuple) -> None:
    if event == "socket.getaddrinfo" and not _is_local(args[0]):
        _record(event, args[:2])
        raise socket.gaierror(socket.EAI_NONAME, f"network guard: no lookup of {args[0]!r} from this test")
    if event in ("socket.connect", "socket.sendto", "socket.sendmsg") and len(args) > 1:
        address = args[1]
        if isinstance(address, tuple) and not _is_local(address[0]):
            _record(event, address[:2])
            raise ConnectionRefusedError(f"network guard: no connection to {address[:2]!r} from this test")


if _LOG:
    sys.addaudithook(_guard)
