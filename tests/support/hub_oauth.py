"""The stand-in Hub (`tests.support.hub_repo_server.StandInHubRepos`) as the OpenID provider of a Space.

A Space with `hf_oauth: true` gets `OPENID_PROVIDER_URL` (the Hub) and its own OAuth client id and
secret; Gradio's "Sign in with Hugging Face" then runs the authorization-code flow against it with
authlib. These are the endpoints it reaches, answering as huggingface.co does::

    GET   /.well-known/openid-configuration   issuer, the endpoints below, RS256 id tokens
    GET   /oauth/jwks                         the public key the id tokens are signed with
    GET   /oauth/authorize                    the consent page: the account signed in at the Hub, "Authorize"
    POST  /oauth/authorize                    the button: 302 to the redirect_uri with a one-time code and the state
    POST  /oauth/token                        code -> access_token, id_token (client_secret_basic)
    GET   /oauth/userinfo                     the account of the bearer access token

The authorization request is checked as the Hub checks it: the client id is the Space's, the
redirect goes to `https://<SPACE_HOST>/login/callback`, the response type is `code`; the token
request must come with the client's secret, the code issued for that redirect, once.

To sign in by hand, `python -m tests.support.hub_oauth` serves this Hub with a model and a signed-in
account and prints the `make app` line with a Space's variables pointing at it. SPACE_HOST stays
unset there, so Gradio sends the browser back to the app's own http://127.0.0.1:7860.
"""

from __future__ import annotations

import base64
import hashlib
import html
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

from tests.support.hub_repo_server import StandInHubRepos
from tests.support.hub_server import HubResponse, chat_model_files

__all__ = ["HubAccount", "OAuthClient", "StandInHubOAuth"]

TOKEN_LIFETIME_S = 8 * 60 * 60  # the Hub's: an OAuth access token lasts 8 hours


@dataclass(frozen=True)
class HubAccount:
    """A person's Hub account, as the id token and userinfo give it."""

    username: str
    name: str


@dataclass(frozen=True)
class OAuthClient:
    """A Space's OAuth app: what the Space gets as OAUTH_CLIENT_ID and OAUTH_CLIENT_SECRET."""

    client_id: str
    client_secret: str
    origin: str
    """Where the Space is reached: https://<SPACE_HOST>, or the app's own address when SPACE_HOST is unset."""

    @property
    def callback(self) -> str:
        return f"{self.origin}/login/callback"


@dataclass(frozen=True)
class _Grant:
    account: HubAccount
    redirect_uri: str
    nonce: str | None
    scope: str


@dataclass
class _OAuthState:
    client: OAuthClient | None = None
    signed_in: HubAccount | None = None
    codes: dict[str, _Grant] = field(default_factory=dict)
    access_tokens: dict[str, HubAccount] = field(default_factory=dict)


class StandInHubOAuth(StandInHubRepos):
    """A stand-in Hub that also signs people in to one Space, as `with StandInHubOAuth() as hub:`."""

    def __init__(self) -> None:
        super().__init__()
        self.oauth = _OAuthState()
        self._key = RSAKey.generate_key(2048, parameters={"kid": "stand-in-hub"})
        self.route({"GET"}, r"/\.well-known/openid-configuration", self._metadata)
        self.route({"GET"}, r"/oauth/jwks", self._jwks)
        self.route({"GET"}, r"/oauth/authorize", self._consent_page)
        self.route({"POST"}, r"/oauth/authorize", self._approve)
        self.route({"POST"}, r"/oauth/token", self._token)
        self.route({"GET"}, r"/oauth/userinfo", self._userinfo)

    # -- what tests use -----------------------------------------------------------------------

    def register_space(self, origin: str) -> OAuthClient:
        """The Space's OAuth app, as the Hub creates it for `hf_oauth: true`, calling back to `origin`."""
        self.oauth.client = OAuthClient(secrets.token_hex(8), secrets.token_urlsafe(24), origin)
        return self.oauth.client

    def sign_in(self, account: HubAccount) -> None:
        """The person at the browser is signed in at the Hub as `account` (the consent page shows it)."""
        self.oauth.signed_in = account

    # -- serving: the request's query, form body and Authorization header -----------------------

    def handle(self, method: str, raw_path: str, authorization: str | None) -> HubResponse:
        self._request.authorization = authorization
        return super().handle(method, raw_path, authorization)

    def _query(self) -> dict[str, str]:
        return {name: values[0] for name, values in parse_qs(urlsplit(self._request.raw_path).query).items()}

    def _form(self) -> dict[str, str]:
        return {name: values[0] for name, values in parse_qs(self._body().decode()).items()}

    # -- endpoints ----------------------------------------------------------------------------

    def _metadata(self, method: str, match: Any, token: str | None) -> HubResponse:
        return HubResponse.json({
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/oauth/authorize",
            "token_endpoint": f"{self.url}/oauth/token",
            "userinfo_endpoint": f"{self.url}/oauth/userinfo",
            "jwks_uri": f"{self.url}/oauth/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "profile", "email", "read-repos", "write-repos", "manage-repos",
                                 "inference-api"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        })

    def _jwks(self, method: str, match: Any, token: str | None) -> HubResponse:
        return HubResponse.json({"keys": [{**self._key.as_dict(private=False), "alg": "RS256", "use": "sig"}]})

    def _consent_page(self, method: str, match: Any, token: str | None) -> HubResponse:
        query = self._query()
        problem = self._authorization_problem(query)
        if problem:
            return HubResponse.error(400, None, problem)
        account = self.oauth.signed_in
        assert account is not None, "sign a person in at the stand-in Hub first (hub.sign_in)"
        fields = "".join(f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
                         for name, value in query.items())
        page = (f"<!doctype html><title>Authorize</title><p>Signed in as {html.escape(account.username)}.</p>"
                f'<form method="post" action="/oauth/authorize">{fields}<button>Authorize</button></form>')
        return HubResponse(200, page.encode(), {"Content-Type": "text/html; charset=utf-8"})

    def _approve(self, method: str, match: Any, token: str | None) -> HubResponse:
        form = self._form()
        problem = self._authorization_problem(form)
        if problem or self.oauth.signed_in is None:
            return HubResponse.error(400, None, problem or "nobody is signed in at the Hub")
        code = secrets.token_urlsafe(16)
        with self._lock:
            self.oauth.codes[code] = _Grant(self.oauth.signed_in, form["redirect_uri"], form.get("nonce"),
                                            form.get("scope", ""))
        separator = "&" if "?" in form["redirect_uri"] else "?"
        location = form["redirect_uri"] + separator + urlencode({"code": code, "state": form.get("state", "")})
        return HubResponse(302, b"", {"Location": location})

    def _authorization_problem(self, query: dict[str, str]) -> str | None:
        client = self.oauth.client
        if client is None or query.get("client_id") != client.client_id:
            return f"unknown client_id {query.get('client_id')!r}"
        if query.get("response_type") != "code":
            return f"response_type must be 'code', not {query.get('response_type')!r}"
        target = urlsplit(query.get("redirect_uri", ""))
        if f"{target.scheme}://{target.netloc}{target.path}" != client.callback:
            return f"redirect_uri {query.get('redirect_uri')!r} is not the Space's {client.callback}"
        return None

    def _token(self, method: str, match: Any, token: str | None) -> HubResponse:
        client, form = self.oauth.client, self._form()
        if client is None or self._client_credentials() != (client.client_id, client.client_secret):
            return HubResponse.json({"error": "invalid_client"}, status=401)
        with self._lock:
            grant = self.oauth.codes.pop(form.get("code", ""), None)  # a code is good once
        if form.get("grant_type") != "authorization_code" or grant is None or form.get("redirect_uri") != grant.redirect_uri:
            return HubResponse.json({"error": "invalid_grant"}, status=400)
        access_token = "hf_oauth_" + secrets.token_hex(20)
        with self._lock:
            self.oauth.access_tokens[access_token] = grant.account
        return HubResponse.json({"access_token": access_token, "token_type": "bearer", "expires_in": TOKEN_LIFETIME_S,
                                 "scope": grant.scope, "id_token": self._id_token(grant, client)})

    def _client_credentials(self) -> tuple[str, str] | None:
        authorization = self._request.authorization or ""
        if not authorization.startswith("Basic "):
            return None
        client_id, _, secret = base64.b64decode(authorization[6:]).decode().partition(":")
        return client_id, secret

    def _id_token(self, grant: _Grant, client: OAuthClient) -> str:
        now = int(time.time())
        claims = {"iss": self.url, "sub": _subject(grant.account), "aud": client.client_id, "iat": now,
                  "exp": now + TOKEN_LIFETIME_S, **self._profile(grant.account)}
        if grant.nonce:
            claims["nonce"] = grant.nonce
        return jwt.encode({"alg": "RS256", "kid": self._key.kid}, claims, self._key)

    def _userinfo(self, method: str, match: Any, token: str | None) -> HubResponse:
        account = self.oauth.access_tokens.get(token or "")
        if account is None:
            return HubResponse.json({"error": "invalid_token"}, status=401)
        return HubResponse.json({"sub": _subject(account), **self._profile(account)})

    def _profile(self, account: HubAccount) -> dict[str, str]:
        return {"name": account.name, "preferred_username": account.username,
                "profile": f"{self.url}/{account.username}", "picture": f"{self.url}/avatars/{account.username}.svg"}


def _subject(account: HubAccount) -> str:
    return hashlib.sha1(account.username.encode()).hexdigest()[:24]  # stable per account, like the Hub's user id


def main() -> None:  # pragma: no cover - by hand: python -m tests.support.hub_oauth [APP_URL]
    """Serve the stand-in Hub until interrupted and print how to start the app as a Space against it."""
    import sys
    import threading

    app_url = sys.argv[1].rstrip("/") if len(sys.argv) > 1 else "http://127.0.0.1:7860"
    with StandInHubOAuth() as hub:
        hub.add_model("indic-demo/hindi-writer-7b", chat_model_files(), parameters=7_000_000_000,
                      card_data={"license": "apache-2.0"})
        hub.sign_in(HubAccount("ananya-krishnamurthy", "Ananya Krishnamurthy"))
        client = hub.register_space(app_url)
        print(f"HF_HUB_OFFLINE=0 SYSTEM=spaces SPACE_ID=indic-demo/leaderboard OAUTH_CLIENT_ID={client.client_id} "
              f"OAUTH_CLIENT_SECRET={client.client_secret} OAUTH_SCOPES='openid profile' "
              f"OPENID_PROVIDER_URL={hub.url} HF_ENDPOINT={hub.url} WORKER_ENABLED=false make app", flush=True)
        print(f"then open {app_url}, Submit, 'Sign in with Hugging Face', Authorize, and submit "
              "indic-demo/hindi-writer-7b (Ctrl-C stops the stand-in Hub)", flush=True)
        threading.Event().wait()


if __name__ == "__main__":  # pragma: no cover
    main()
