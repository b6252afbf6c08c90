"""Command lines and device configurations that carry a password, tuned on the training
corpora (train20a's misses; train40b was read for the families, heldout22 never): MongoDB's
shells and tools, the Azure CLI, lftp, Windows' ``net user``, ``vncpasswd`` fed a here-string,
and a Cisco device's users and enable password in clear or in the reversible type 7. Each is
refused by the rules alone; the same commands prompting for the password, reading it from the
environment, or holding a hash are stored. The phrasings are written for this test."""

from __future__ import annotations

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

RULES = Guard(learned=False)

REFUSED = [
    "mongosh --host db-3.internal -u reporting -p 'Kq7!mVz2Lp' --authenticationDatabase admin",
    "mongodump --uri mongodb://db-3:27017 --username backup --password Wr4pped-Fjord-22 --out /var/backups",
    "az login -u deploy@contoso.example -p 'g7Lq!2vRx9Tz'",
    "lftp -u sandra,'Harbor-Lantern8841' sftp://files.example.net",
    "net user kiosk Pw9xLmQ2zR7t /add",
    "vncpasswd -f <<< 'R8tLq2Vx9mZp' > ~/.vnc/passwd",
    "username netops privilege 15 password 0 Copper#Falcon72",
    "enable secret 0 Gr4nite!Ridge",
    "username backup password 7 094F471A1A0A",
]
STORED = [
    "mongosh --host db-3.internal -u reporting -p --authenticationDatabase admin   # it asks for the password",
    "az login -u deploy@contoso.example -p $AZURE_PASSWORD",
    "net user kiosk * /add",
    "net user kiosk /delete",
    "lftp -u sandra sftp://files.example.net",
    "username netops privilege 15 secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM",
    "username netops secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
    "enable secret <set from the vault>",
    "Our MongoDB runbook: connect with mongosh, then check replication lag.",
]


@pytest.mark.parametrize("value", REFUSED, ids=range(len(REFUSED)))
def test_refused_by_the_rules_alone(guard, value):
    assert "password" in refused_kinds(RULES, value)
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", STORED, ids=range(len(STORED)))
def test_stored_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
