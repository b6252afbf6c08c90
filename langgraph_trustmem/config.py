"""Settings from arguments and ``TRUSTMEM_*`` environment variables.

Arguments win over the environment. With no service URLs at all, the
embedded default starts its own PostgreSQL and Redis tier (see
``embedded.py``); with real URLs and no key, the library refuses to start,
because it would otherwise have to invent a key nobody could recover.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import ConfigurationError, MissingKeyError
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder

ENV_POSTGRES_URL = "TRUSTMEM_POSTGRES_URL"
ENV_REDIS_URL = "TRUSTMEM_REDIS_URL"
ENV_QDRANT_URL = "TRUSTMEM_QDRANT_URL"
ENV_KEY = "TRUSTMEM_KEY"
ENV_HOME = "TRUSTMEM_HOME"
ENV_LEVELS = "TRUSTMEM_LEVELS"


def _env(name: str) -> str | None:
    value = os.environ.get(name)
    return value.strip() or None if value is not None else None


def default_home() -> Path:
    """The data directory of the embedded default."""
    if home := _env(ENV_HOME):
        return Path(home).expanduser()
    from platformdirs import user_data_dir  # noqa: PLC0415

    return Path(user_data_dir("langgraph-trustmem", appauthor=False))


def resolve_keyring(key: str | bytes | KeyRing | None, *, required: bool) -> KeyRing | None:
    """The key ring from ``key=`` or ``TRUSTMEM_KEY``.

    ``required`` is true when real services are configured: then a missing
    key is an error rather than something to generate.
    """
    if isinstance(key, KeyRing):
        return key
    if isinstance(key, bytes) and len(key) == 32:
        return KeyRing([key])
    text = key.decode() if isinstance(key, bytes) else key
    text = text or _env(ENV_KEY)
    if text:
        return KeyRing.parse(text)
    if required:
        raise MissingKeyError(
            "an encryption key is required with real service URLs: pass key= or set "
            f"{ENV_KEY} to 32 random bytes in base64 (trustmem keygen prints one)"
        )
    return None


def resolve_ladder(levels: Ladder | list[str] | tuple[str, ...] | None) -> Ladder:
    if isinstance(levels, Ladder):
        return levels
    if levels:
        return Ladder(levels)
    if text := _env(ENV_LEVELS):
        return Ladder([p.strip() for p in text.split(",") if p.strip()])
    return DEFAULT_LADDER


@dataclass
class Settings:
    """Everything a deployment configures, resolved once."""

    postgres_url: str | None = None
    redis_url: str | None = None
    qdrant_url: str | None = None
    home: Path = field(default_factory=default_home)
    ladder: Ladder = DEFAULT_LADDER
    key: KeyRing | None = None

    @classmethod
    def resolve(
        cls,
        *,
        postgres_url: str | None = None,
        redis_url: str | None = None,
        qdrant_url: str | None = None,
        key: str | bytes | KeyRing | None = None,
        home: str | os.PathLike[str] | None = None,
        levels: Ladder | list[str] | None = None,
    ) -> Settings:
        pg = postgres_url or _env(ENV_POSTGRES_URL)
        rd = redis_url or _env(ENV_REDIS_URL)
        qd = qdrant_url or _env(ENV_QDRANT_URL)
        real = bool(pg or rd or (qd and "://" in qd))
        ring = resolve_keyring(key, required=real)
        if rd and not pg:
            raise ConfigurationError(
                "a Redis URL without a PostgreSQL URL: PostgreSQL is the system of record"
            )
        return cls(
            postgres_url=pg,
            redis_url=rd,
            qdrant_url=qd,
            home=Path(home).expanduser() if home else default_home(),
            ladder=resolve_ladder(levels),
            key=ring,
        )

    def __repr__(self) -> str:  # URLs without their passwords
        from langgraph_trustmem.services import redact  # noqa: PLC0415

        urls = ", ".join(
            f"{name}={redact(url)!r}" if url else f"{name}=None"
            for name, url in (
                ("postgres_url", self.postgres_url),
                ("redis_url", self.redis_url),
                ("qdrant_url", self.qdrant_url),
            )
        )
        return f"Settings({urls}, home={str(self.home)!r}, ladder={self.ladder!r}, key={self.key!r})"

    __str__ = __repr__

    @property
    def embedded(self) -> bool:
        """True when no PostgreSQL URL is configured."""
        return self.postgres_url is None


__all__ = ["Settings", "default_home", "resolve_keyring", "resolve_ladder"]
