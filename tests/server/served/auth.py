"""The test server's auth: a bearer token is the hex of the user's identity
(so no identity is written in this file), and every resource a user makes
is tagged with their keyed owner tag and filtered on it."""

from __future__ import annotations

from typing import Any

from langgraph_sdk import Auth

from langgraph_trustmem.server import admit_run, owner_tag

auth = Auth()


@auth.authenticate
async def authenticate(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    try:
        identity = bytes.fromhex(token).decode()
    except ValueError:
        identity = ""
    if scheme.lower() != "bearer" or not identity:
        raise Auth.exceptions.HTTPException(status_code=401, detail="a bearer token is required")
    return identity


@auth.on
async def owner_only(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    tag = {"owner": owner_tag(ctx.user.identity)}
    if isinstance(value, dict) and isinstance(value.get("metadata", {}), dict):
        value.setdefault("metadata", {}).update(tag)
    return tag


@auth.on.threads.create_run
async def runs_by_the_session_rules(ctx: Auth.types.AuthContext, value: Any) -> dict[str, str]:
    await admit_run(ctx, value)
    return await owner_only(ctx, value)
