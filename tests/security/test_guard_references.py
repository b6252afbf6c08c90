"""A value read by name from where it is kept is no one's secret: more ways configs and code
name an environment variable (a pipeline's ``$(NAME)``, Go templates, PowerShell's
``$env:NAME``, ``${env:NAME}``, ``${NAME:-}``, Ruby's ``ENV['NAME']``, .NET, Java, Go, Node,
Concourse's ``((name))``, an Ansible variable) and more secret stores' addresses (Kubernetes,
Berglas, Google's and Azure Key Vault's). Tuned on the training corpora (train40b's false
positives; heldout22 never read). The same syntaxes ASSIGNED a value, or holding a value
dressed as a name, are still refused. The phrasings are written for this test."""

from __future__ import annotations

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

RULES = Guard(learned=False)

STORED = [
    "  openai-api-key: \"$(OPENAI_API_KEY)\"\n  grafana-password: '{{ .Env.GRAFANA_PASSWORD }}'",
    "smtpPassword: \"!ENV ${SMTP_PASSWORD}\",\n  sdkSecret: '$env:VENDOR_SDK_SECRET'",
    'const auth0ClientSecret = "${env:AUTH0_CLIENT_SECRET}";\nconst apiKey = "${VENDOR_API_KEY:-}";',
    'var saPassword = Environment.GetEnvironmentVariable("MSSQL_SA_PASSWORD");',
    "docker run -e MYSQL_ROOT_PASSWORD=\"#{ENV['MYSQL_ROOT_PASSWORD']}\" mysql:8",
    "PROXY_PASS: {{ vault_proxy_pass }}",
    "REDIS_PASSWORD=k8s://secret/cache/redis-password",
    'PADDLE_API_KEY="https://kv-orbit.vault.azure.net/secrets/paddle-api-key/1a960e05800f645d75b63a3450c6c868"',
    "ONELOGIN_CLIENT_SECRET=((onelogin-client-secret))",
    "PREFECT_API_KEY = berglas://ops-secrets/prefect-api-key",
    "curl -H 'Authorization: Bearer ${BIP39_WALLET_TOKEN}' https://api.example.com/v3/me",
    "mongorestore -u admin -p --archive=dump2024.gz",
    "az login --service-principal -u 0a1b2c3d -p cert2024.pem --tenant contoso.onmicrosoft.com",
]
REFUSED = [
    'ENV["VAULT_TOKEN"] ||= "s.xveEugqMw9GlO7iT7CENHz4L"',
    'process.env.KLARNA_PASSWORD ??= "6ZESqsEdDvmspIFV";',
    '$env:DASHBOARD_PASSWORD = "cobalt-waffle-penguin-42"',
    "DB_PASSWORD=$(Xk9vT2mLp8RzQ4wN)",
    "API_KEY=${SECRET_KEY:-sk_live_4eC39HqLyjWDarjtT1zdp7dcQ9wE8rT}",
    "PADDLE_API_KEY=https://kv-orbit.vault.azure.net/secrets/Xk9vT2mLp8RzQ4wNb3Hd7Lq2",
    "password = ((hunter2Xy9!))",
    "SLACK_TOKEN=k8s://secret/xoxb-2456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    # a reference with a literal to fall back on, or beside it, keeps its name for the rules
    "const dbPassword = process.env.DB_PASSWORD || 'Zx8#qLm2vR!';",
    "const pw = process.env.DB_PASSWORD\n  ?? 'Zx8#qLm2vR!';",
    "{{ .Env.DB_PASSWORD }} Zx8#qLm2vR!",
    # a value dressed as a name: digits, leet, a UUID, a passphrase or a dated word in the address
    'db_password = os.Getenv("hunter2024")',
    "vault password: ((p4ssw0rd.2024))",
    "password: $(P4SS_W0RD_2024)",
    'heroku api key: os.Getenv("d3b07384-d9a0-4c9b-8f7e-1a2b3c4d5e6f")',
    "wifi password: op://Private/purple-monkey-dishwasher-staple",
    "db password: sm:prod/sunflower-2024",
    "DB_PASSWORD=sm:db/zq7wn4-bcd3fghxk9",
]


@pytest.mark.parametrize("value", STORED, ids=range(len(STORED)))
def test_a_reference_is_stored_unchanged(value):
    assert stored(RULES, value) == (value, [])


@pytest.mark.parametrize("value", REFUSED, ids=range(len(REFUSED)))
def test_a_value_is_refused_by_the_rules(guard, value):
    assert refused_kinds(RULES, value)
    assert refused_kinds(guard, value)
