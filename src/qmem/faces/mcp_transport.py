"""What carries `qmem mcp`'s messages safely: stdin lines with half a character escaped are
mended before the SDK parses them, and the HTTP face is guarded (loopback unless asked, a bearer
token of real strength off loopback, Host and Origin checked against DNS rebinding)."""

import os

from ..base.errors import BadInputError


def replace_lone_surrogates(line: bytes) -> bytes:
    """A JSON text whose `\\uD8xx`-style escapes name half a character (a lone surrogate, which
    no UTF-8 text can hold and the SDK's parser refuses, leaving the request unanswered) with
    U+FFFD in their place, as a UTF-8 decoder does with bytes it cannot read; every other byte
    is kept."""
    if b"\\u" not in line:
        return line
    out, i, n = bytearray(), 0, len(line)
    while i < n:
        ch = line[i]
        if ch != 0x5C or i + 1 >= n:  # not a backslash
            out.append(ch)
            i += 1
            continue
        if line[i + 1] != 0x75:  # an escape other than \u: both bytes as they are
            out += line[i:i + 2]
            i += 2
            continue
        code = _hex4(line[i + 2:i + 6])
        if code is None or not 0xD800 <= code <= 0xDFFF:
            out += line[i:i + 2]
            i += 2
            continue
        low = _hex4(line[i + 8:i + 12]) if line[i + 6:i + 8] == b"\\u" else None
        if code <= 0xDBFF and low is not None and 0xDC00 <= low <= 0xDFFF:
            out += line[i:i + 12]  # a whole pair: one character
            i += 12
            continue
        out += b"\\ufffd"
        i += 6
    return bytes(out)


def _hex4(text: bytes) -> int | None:
    try:
        return int(text, 16) if len(text) == 4 else None
    except ValueError:
        return None


class surrogates_replaced_on_stdin:  # a context manager, used like a function
    """While it lasts, fd 0 is a pipe fed line by line from the real stdin with lone surrogate
    escapes replaced (`replace_lone_surrogates`), so every request gets an answer."""

    def __enter__(self) -> None:
        import threading

        self.saved = os.dup(0)
        read_end, self.write_end = os.pipe()
        os.dup2(read_end, 0)
        os.close(read_end)
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        from ..base.writes import write_all

        pending = b""
        try:
            while True:
                data = os.read(self.saved, 1 << 16)
                if not data:
                    break
                pending += data
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    write_all(self.write_end, replace_lone_surrogates(line) + b"\n")
            if pending:
                write_all(self.write_end, replace_lone_surrogates(pending))
        except OSError:
            pass
        finally:
            os.close(self.write_end)

    def __exit__(self, *exc: object) -> None:
        os.dup2(self.saved, 0)
        os.close(self.saved)


MIN_TOKEN = 16


def is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to anything


MIN_DISTINCT = 6
MAKE_TOKEN = "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"


def token_problem(token: str) -> str | None:
    """Why `token` is no secret (too short, white space, too few distinct characters, a
    repeated pattern), or None. A random 16-character token passes; `aaaa…`, `abab…`,
    16 spaces do not."""
    if len(token) < MIN_TOKEN:
        return f"too short ({len(token)} characters; at least {MIN_TOKEN})"
    if any(ch.isspace() or not ch.isprintable() for ch in token):
        return "it holds white space or control characters"
    if len(set(token)) < MIN_DISTINCT:
        return f"too easy to guess (only {len(set(token))} distinct characters; at least {MIN_DISTINCT})"
    if any(token == (token[:k] * (len(token) // k + 1))[:len(token)] for k in range(1, len(token) // 2 + 1)):
        return "too easy to guess (one short pattern repeated)"
    return None


def check_http_exposure(host: str, allow_remote: bool, token: str | None) -> None:
    """Refuse to put the memory on the network by accident, or without a real secret."""
    problem = None if token is None else token_problem(token)
    if problem:
        raise BadInputError(f"the bearer token is {problem}; make one with: {MAKE_TOKEN}")
    if is_loopback(host):
        return
    if not allow_remote:
        raise BadInputError(f"--host {host} is not a loopback address and would serve every memory tool to the "
                            "network; add --allow-remote and a bearer token ($QMEM_MCP_TOKEN or --token)")
    if not token:
        raise BadInputError(f"--allow-remote needs a bearer token for --host {host}: set $QMEM_MCP_TOKEN "
                            f"(or --token) to a secret of at least {MIN_TOKEN} characters")


def bind(host: str, port: int):  # socket.socket
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise BadInputError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise BadInputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.setblocking(False)
    return sock


def allowed_origins(host: str, address: str, port: int) -> tuple[set[str], set[str]]:
    """The Host and Origin header values a request to a loopback server may carry: the
    address it was given and the one it is bound to (and `localhost` where that is where the
    name leads), each with the port. Anything else is a page whose DNS name was rebound to us."""
    import ipaddress

    names = {host.lower()}
    for value in (host, address):
        try:
            ip = ipaddress.ip_address(value.strip("[]"))
        except ValueError:
            continue
        names.add(str(ip))
        if ip.version == 6 and ip.ipv4_mapped is None:
            names.add(ip.exploded)
        if str(ip) in ("127.0.0.1", "::1"):
            names.add("localhost")
    if "localhost" in names:
        names.update({"127.0.0.1", "::1"})
    hosts = {f"[{n}]" if ":" in n.strip("[]") else n for n in (n.strip("[]") for n in names)}
    with_port = {f"{h}:{port}" for h in hosts} | (hosts if port == 80 else set())
    return with_port, {f"http://{h}" for h in with_port}


class HostGuard:
    """ASGI middleware against DNS rebinding: a request whose Host is not this server's own
    address gets 421, one whose Origin is another site 403 (no Origin: not a browser page)."""

    def __init__(self, app, hosts: set[str], origins: set[str]) -> None:
        self.app = app
        self.hosts = {h.encode() for h in hosts}
        self.origins = {o.encode() for o in origins}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = dict(scope.get("headers") or [])
            origin = headers.get(b"origin")
            status = 421 if headers.get(b"host", b"").lower() not in self.hosts else \
                403 if origin is not None and origin.lower() not in self.origins else 0
            if status:
                body = b'{"error": "this server answers only requests addressed to it (Host/Origin)"}'
                await send({"type": "http.response.start", "status": status, "headers": [
                    (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class BearerAuth:
    """ASGI middleware: every HTTP request must carry `Authorization: Bearer <token>`."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send) -> None:
        import hmac

        if scope["type"] in ("http", "websocket"):
            given = dict(scope.get("headers") or []).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                body = b'{"error": "missing or wrong bearer token"}'
                await send({"type": "http.response.start", "status": 401, "headers": [
                    (b"content-type", b"application/json"), (b"www-authenticate", b'Bearer realm="qmem"'),
                    (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
