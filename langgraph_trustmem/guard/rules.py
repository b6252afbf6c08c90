"""Our token rules, written in the rule engine's own format and run by it.

betterleaks loads these on top of its ~465 default rules (``[extend] useDefault = true``),
so each format is defined once, here, and matched by the engine in one pass over a
memory together with its own rules (the engine compiles a configuration once and caches
it, so a scan with the extension costs what a scan with the defaults costs).

Three groups:

* **Keyword-free variants of the engine's own rules.** Many of the engine's rules only
  fire when the vendor's name stands next to the token (``twitter ... = <token>``), since
  they were written for source code, where a variable name says what a value is. A memory
  is prose: "here it is, don't share: <token>". Where the token carries its own
  distinctive prefix and shape, the variant below drops the keyword (same regex for the
  secret, the engine's own entropy filter where it has one). The candidates were the
  engine's rules whose secret starts with a literal prefix of its own. Left keyword-bound:
  prefixes that are not distinctive (Okta ``00...``, PagerDuty ``u+...``, GoCardless
  ``live_...``, Databento ``db-...``, Beamer ``b_...``, mem0 ``m0-...``, Klaviyo ``pk_...``,
  which reads as a publishable key, Yandex ``YC...``, Plivo ``MA...``, Polymarket ``0x...``,
  an address or a key: see the Ethereum detector); public identifiers (Mapbox ``pk.``,
  Mailgun ``pubkey-``, New Relic browser ``NRJS-``, Canva and Zoho client ids, Midtrans
  client keys); JWT-shaped Monday, Scalr, Miro and Temporal tokens (the engine's JWT rule
  sees them); Stripe-shaped Clerk, Highnote and WorkOS keys (its Stripe rule sees them).
  Not done yet: Retell ``key_`` + 28 hex, Yandex ``t1.`` access tokens, Alibaba STS
  ``CAIS...`` tokens, Freemius ``sk_`` keys.
* **Fixes of engine rules** that reject the tokens they describe (LangSmith keys are hex,
  so an entropy limit of 4.0 bits, the maximum of hex, rejects them) or need a second
  component a memory does not hold (Azure AD client secrets wait for a tenant and client
  id within 8 lines).
* **Formats the engine has no rule for** (Google OAuth access and refresh tokens, Firebase
  Cloud Messaging server keys, Mapbox secret tokens, PuTTY v3 keys, Django's insecure
  development keys) and formats its rules only report next to a keyword that used to be
  Python regexes of the guard (Anthropic keys of other lengths, OpenAI project keys without
  ``T3BlbkFJ``, Stripe webhook secrets, Hugging Face, Vault, Mailgun, Square, Tailscale,
  Notion, Airtable, Heroku, Facebook, New Relic, Alibaba, Contentful, Dropbox, Tavily), and
  webhook URLs whose path is the secret (Zapier, Make, IFTTT, Mattermost, Teams).

Each rule names the kind a refusal reports; kinds are constants, never text from a value.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass

__all__ = ["EXTENSION_RULES", "GENERATED_RULES", "RULE_KINDS", "config_path", "extension_toml"]

# Where a token may end: anything that cannot continue it (the engine's own rules stop at
# whitespace, quotes and ";" only; in prose a token is also followed by ".", ")" or by
# CJK text without a space).
_END = r"(?:[^A-Za-z0-9_\-]|$)"
_START = r"(?:^|[^A-Za-z0-9_\-])"


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    description: str
    regex: str  # the secret in group 1
    keywords: tuple[str, ...]  # lower-case substrings of which the text must hold one
    filter: str = ""  # a CEL expression over finding["secret"]: true drops the finding
    generated: bool = False  # a short prefix: the match must read as generated, not as words


EXTENSION_RULES: tuple[Rule, ...] = (
    # -- keyword-free variants of the engine's rules ------------------------------------------
    Rule("twitter-bearer-token-bare", "Twitter token", "X/Twitter app-only bearer token",
         _START + r"(A{20,24}[A-Za-z0-9%]{50,160})" + _END, ("aaaaaaaaaaaaaaaaaaaa",),
         'entropy(finding["secret"]) < 3.0'),
    Rule("mailgun-private-api-token-bare", "Mailgun key", "Mailgun private API key",
         _START + r"(key-[0-9a-f]{32})" + _END, ("key-",), 'entropy(finding["secret"]) < 3.0'),
    Rule("dropbox-short-lived-api-token-bare", "Dropbox token", "Dropbox short-lived token",
         _START + r"(sl\.(?:u\.)?[A-Za-z0-9_\-=]{130,})", ("sl.",), 'entropy(finding["secret"]) < 3.5'),
    Rule("new-relic-key-bare", "New Relic key", "New Relic user API key or insert key",
         _START + r"(NR(?:AK|II)-[A-Za-z0-9\-]{27,32})" + _END, ("nrak-", "nrii-")),
    Rule("elevenlabs-api-key-bare", "ElevenLabs key", "ElevenLabs API key",
         _START + r"(sk_[0-9a-f]{48})" + _END, ("sk_",), 'entropy(finding["secret"]) < 3.0'),
    Rule("deepseek-api-key-bare", "DeepSeek key", "DeepSeek API key",
         _START + r"(sk-[0-9a-f]{32})" + _END, ("sk-",), 'entropy(finding["secret"]) < 3.0'),
    Rule("openai-legacy-key-bare", "OpenAI key", "OpenAI legacy key (Moonshot and Stability use the shape too)",
         _START + r"(sk-[A-Za-z0-9]{48})" + _END, ("sk-",), 'entropy(finding["secret"]) < 3.5'),
    Rule("resend-api-key-bare", "Resend key", "Resend API key (any letters, not only base58)",
         _START + r"(re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24})" + _END, ("re_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("notion-api-token-bare", "Notion token", "Notion API token (ntn_, any letters after the prefix)",
         _START + r"(ntn_[A-Za-z0-9]{40,50})" + _END, ("ntn_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("clickup-personal-api-token-bare", "ClickUp token", "ClickUp personal API token",
         _START + r"(pk_[0-9]{6,9}_[A-Za-z0-9]{32})" + _END, ("pk_",), 'entropy(finding["secret"]) < 3.0'),
    Rule("crates-io-api-key-bare", "crates.io token", "crates.io API token",
         _START + r"(cio[A-Za-z0-9]{32})" + _END, ("cio",), 'entropy(finding["secret"]) < 3.5'),
    Rule("cursor-api-key-bare", "Cursor key", "Cursor API key",
         _START + r"(key_[0-9a-f]{64})" + _END, ("key_",), 'entropy(finding["secret"]) < 3.0'),
    Rule("defined-networking-api-token-bare", "Defined Networking token", "Defined Networking API token",
         _START + r"(dnkey-[A-Za-z0-9=_\-]{26}-[A-Za-z0-9=_\-]{52})" + _END, ("dnkey-",)),
    Rule("plaid-api-token-bare", "Plaid token", "Plaid access token",
         _START + r"(access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"
         r"-[0-9a-f]{12})" + _END, ("access-sandbox-", "access-development-", "access-production-")),
    Rule("rainforest-pay-api-key-bare", "API key or token", "Rainforest Pay API key",
         _START + r"(apikey_[a-f0-9]{64})" + _END, ("apikey_",)),
    Rule("telnyx-api-v2-key-bare", "API key or token", "Telnyx API v2 key",
         _START + r"(KEY[0-9A-Za-z_\-]{55})" + _END, ("key",), 'entropy(finding["secret"]) < 3.5'),
    Rule("typeform-api-token-bare", "Typeform token", "Typeform personal token",
         _START + r"(tfp_[A-Za-z0-9\-_.=]{59})" + _END, ("tfp_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("woocommerce-consumer-secret-bare", "API key or token", "WooCommerce consumer secret",
         _START + r"(cs_[a-f0-9]{40})" + _END, ("cs_",), 'entropy(finding["secret"]) < 3.0'),
    Rule("yandex-api-key-bare", "API key or token", "Yandex Cloud API key",
         _START + r"(AQVN[A-Za-z0-9_\-]{35,38})" + _END, ("aqvn",), 'entropy(finding["secret"]) < 3.5'),
    Rule("zoho-oauth-token-bare", "API key or token", "Zoho OAuth token",
         _START + r"(1000\.[a-f0-9]{32}\.[a-f0-9]{32})" + _END, ("1000.",)),
    Rule("checkout-secret-key-bare", "API key or token", "Checkout.com secret key",
         _START + r"(sk_[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12})" + _END, ("sk_",)),
    Rule("ebay-client-secret-bare", "API key or token", "eBay production client secret",
         _START + r"(PRD-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4,12})" + _END, ("prd-",)),
    Rule("ionic-personal-access-token-bare", "API key or token", "Ionic personal access token",
         _START + r"(ion_[A-Za-z0-9]{42})" + _END, ("ion_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("endorlabs-api-key-bare", "API key or token", "Endor Labs API key or secret",
         _START + r"(endr\+[A-Za-z0-9\-]{16})" + _END, ("endr+",)),
    Rule("midtrans-server-key-bare", "API key or token", "Midtrans server key",
         _START + r"(Mid-server-[A-Za-z0-9_]{10,20})" + _END, ("mid-server-",)),
    Rule("airtable-personal-access-token-bare", "Airtable token", "Airtable personal access token",
         _START + r"(pat[A-Za-z0-9]{14}\.[a-f0-9]{64})" + _END, ("pat",)),
    Rule("alibaba-access-key-id-bare", "Alibaba Cloud key", "Alibaba Cloud AccessKey ID",
         _START + r"(LTAI[A-Za-z0-9]{20})" + _END, ("ltai",), 'entropy(finding["secret"]) < 3.0'),
    # -- engine rules fixed --------------------------------------------------------------------
    Rule("langchain-langsmith-personal-access-token", "LangSmith key", "LangSmith personal access token",
         r"\b(lsv2_pt_[0-9a-fA-F]{32}_[0-9a-fA-F]{10})", ("lsv2_pt_",)),
    Rule("langchain-langsmith-service-key", "LangSmith key", "LangSmith service key",
         r"\b(lsv2_sk_[0-9a-fA-F]{32}_[0-9a-fA-F]{10})", ("lsv2_sk_",)),
    Rule("azure-ad-client-secret-bare", "Azure credential", "Azure AD client secret (no tenant or client id needed)",
         r"(?:^|[\\'\"`\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.\-]{31,34})(?:$|[\\'\"`\s<),.;!?])",
         tuple(f"{d}q~" for d in range(10)), 'entropy(finding["secret"]) <= 3.0'),
    # -- formats the engine lacks or only knows next to a keyword ----------------------------------
    Rule("google-oauth-access-token", "Google OAuth token", "Google OAuth 2.0 access token",
         _START + r"(ya29\.[A-Za-z0-9_\-]{30,})", ("ya29.",), 'entropy(finding["secret"]) < 3.5'),
    Rule("google-oauth-refresh-token", "Google OAuth token", "Google OAuth 2.0 refresh token",
         r"(?:^|[^A-Za-z0-9_\-/])(1//0[A-Za-z0-9_\-]{35,})", ("1//0",), 'entropy(finding["secret"]) < 3.5'),
    Rule("google-oauth-client-secret", "Google OAuth client secret", "Google OAuth client secret",
         _START + r"(GOCSPX-[A-Za-z0-9_\-]{24,})", ("gocspx-",)),
    Rule("firebase-cloud-messaging-server-key", "Firebase key", "Firebase Cloud Messaging legacy server key",
         _START + r"(AAAA[A-Za-z0-9_\-]{7}:APA91b[A-Za-z0-9_\-]{100,})", (":apa91b",)),
    Rule("mapbox-secret-token", "Mapbox token", "Mapbox secret token (sk.; pk. tokens are public)",
         _START + r"(sk\.eyJ[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{20,})", ("sk.eyj",)),
    Rule("putty-private-key", "private key", "PuTTY private key file (v2 and v3)",
         r"(PuTTY-User-Key-File-\d+:\s*\S+)", ("putty-user-key-file-",)),
    Rule("django-insecure-secret-key", "Django secret key", "Django development SECRET_KEY",
         r"\b(django-insecure-\S{30,})", ("django-insecure-",)),
    Rule("anthropic-key-any-length", "Anthropic key", "Anthropic API, admin or session key",
         r"\b(sk-ant-(?:api|admin|sid|oat|ort)\d{2}-[A-Za-z0-9_\-]{32,})", ("sk-ant-",)),
    Rule("openai-project-key-any", "OpenAI key", "OpenAI project, service account or admin key",
         _START + r"(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{32,})",
         ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-none-")),
    Rule("stripe-webhook-secret", "Stripe key", "Stripe webhook signing secret",
         r"\b(whsec_[A-Za-z0-9+/=]{24,})", ("whsec_",)),
    Rule("huggingface-token-any", "Hugging Face token", "Hugging Face access token",
         r"\b(hf_[A-Za-z0-9]{30,})", ("hf_",), 'entropy(finding["secret"]) < 3.0'),
    Rule("vault-token-any", "Vault token", "HashiCorp Vault service, batch or recovery token",
         r"\b(hv[sbr]\.[A-Za-z0-9_\-]{24,})", ("hvs.", "hvb.", "hvr.")),
    Rule("square-secret-bare", "Square secret", "Square OAuth application secret",
         r"\b(sq0csp-[0-9A-Za-z_\-]{22,})", ("sq0csp-",)),
    Rule("tailscale-key-bare", "Tailscale key", "Tailscale auth, API or OAuth client key",
         r"\b(tskey-(?:auth|api|client)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,})", ("tskey-",)),
    Rule("notion-integration-secret", "Notion token", "Notion internal integration secret (secret_)",
         r"\b(secret_[A-Za-z0-9]{40,})", ("secret_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("heroku-api-key-any", "Heroku key", "Heroku API key (HRKU-)",
         r"\b(HRKU-[A-Za-z0-9_\-]{30,})", ("hrku-",)),
    Rule("facebook-access-token-bare", "Facebook access token", "Facebook user or page access token",
         r"\b(EAA[A-Za-z0-9]{3,5}[A-Za-z0-9]{40,})", ("eaa",), 'entropy(finding["secret"]) < 3.5'),
    Rule("contentful-personal-access-token-bare", "Contentful token", "Contentful management token",
         _START + r"(CFPAT-[A-Za-z0-9_\-]{43})" + _END, ("cfpat-",)),
    Rule("tavily-api-key", "Tavily key", "Tavily API key",
         r"\b(tvly-(?:dev-|prod-)?[A-Za-z0-9]{32})\b", ("tvly-",)),
    Rule("bitbucket-app-password-bare", "Bitbucket token", "Bitbucket app password or API token (ATBB, ATCTT)",
         _START + r"((?:ATBB|ATCTT3xFfGN0)[A-Za-z0-9_=\-]{28,})" + _END, ("atbb", "atctt3xffgn0"),
         'entropy(finding["secret"]) < 3.5'),
    Rule("langfuse-secret-key", "Langfuse key", "Langfuse secret key (pk-lf- keys are public)",
         _START + r"(sk-lf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})" + _END, ("sk-lf-",)),
    Rule("pinecone-api-key-bare", "Pinecone key", "Pinecone API key",
         _START + r"(pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,})" + _END, ("pcsk_",)),
    Rule("tencent-secret-id-bare", "Tencent Cloud key", "Tencent Cloud SecretId",
         _START + r"(AKID[A-Za-z0-9]{32})" + _END, ("akid",), 'entropy(finding["secret"]) < 3.5'),
    Rule("adafruit-io-key-bare", "Adafruit IO key", "Adafruit IO key",
         _START + r"(aio_[A-Za-z0-9]{28})" + _END, ("aio_",), 'entropy(finding["secret"]) < 3.5'),
    Rule("launchdarkly-sdk-key", "LaunchDarkly key", "LaunchDarkly server-side SDK key",
         _START + r"(sdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})" + _END, ("sdk-",)),
    Rule("flutterwave-secret-key-bare", "Flutterwave key", "Flutterwave secret key",
         _START + r"(FLWSECK(?:_TEST)?-[0-9a-f]{32}-X)" + _END, ("flwseck",)),
    Rule("mandrill-api-key-bare", "Mandrill key", "Mandrill (Mailchimp Transactional) API key",
         _START + r"(md-[A-Za-z0-9_\-]{22})" + _END, ("md-",), 'entropy(finding["secret"]) < 3.8'),
    Rule("nuget-api-key-bare", "NuGet key", "NuGet API key",
         _START + r"(oy2[a-z0-9]{43})" + _END, ("oy2",), 'entropy(finding["secret"]) < 3.5'),
    Rule("asana-pat-bare", "Asana token", "Asana personal access token",
         _START + r"([12]/\d{12,20}/\d{12,20}:[0-9a-f]{32})" + _END, (":",)),
    Rule("live-secret-key-bare", "API key or token", "A live secret key (Mollie, GoCardless shapes)",
         _START + r"(live_[A-Za-z0-9]{30,48})" + _END, ("live_",), 'entropy(finding["secret"]) < 4.0'),
    Rule("bitcoin-extended-private-key", "cryptocurrency private key", "BIP-32 extended private key",
         _START + r"([xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,112})" + _END, ("xprv", "yprv", "zprv", "tprv")),
    Rule("lnd-macaroon", "Lightning macaroon", "LND macaroon (admin, invoice...): a bearer credential, hex or base64",
         _START + r"((?:0201036c6e64[0-9a-f]{100,}|AgEDbG5k[A-Za-z0-9+/_\-]{80,}={0,2}))" + _END,
         ("0201036c6e64", "agedbg5k")),
    Rule("portainer-access-token", "API key or token", "Portainer API access token",
         _START + r"(ptr_[A-Za-z0-9+/]{40,48}={0,2})" + _END, ("ptr_",)),
    Rule("fireworks-api-key-bare", "Fireworks key", "Fireworks AI API key",
         _START + r"(fw_[A-Za-z0-9]{20,40})" + _END, ("fw_",), 'entropy(finding["secret"]) < 3.8', generated=True),
    Rule("voyage-api-key-bare", "Voyage key", "Voyage AI API key",
         _START + r"(pa-[A-Za-z0-9_\-]{40,46})" + _END, ("pa-",), 'entropy(finding["secret"]) < 4.0', generated=True),
    Rule("firecrawl-api-key-bare", "Firecrawl key", "Firecrawl API key",
         _START + r"(fc-[0-9a-f]{32})" + _END, ("fc-",), 'entropy(finding["secret"]) < 3.0', generated=True),
    Rule("flyio-org-token-bare", "Fly.io token", "Fly.io organization token",
         _START + r"(fo1_[A-Za-z0-9_\-]{40,50})" + _END, ("fo1_",), 'entropy(finding["secret"]) < 3.8', generated=True),
    Rule("k3s-cluster-token", "API key or token", "K3s cluster join token (K10...::server:...)",
         _START + r"(K10[0-9a-f]{64}::(?:server|node):[0-9a-f]{32})" + _END, ("k10",)),
    Rule("nostr-secret-key", "cryptocurrency private key", "Nostr private key (nsec1, bech32)",
         _START + r"(nsec1[02-9ac-hj-np-z]{58})" + _END, ("nsec1",)),
    # -- the engine's rules that wait for a second component (an id beside the secret) -------
    Rule("planetscale-api-token-bare", "PlanetScale credential", "PlanetScale service token",
         _START + r"(pscale_tkn_[\w=.\-]{32,64})" + _END, ("pscale_tkn_",), 'entropy(finding["secret"]) <= 3.0', generated=True),
    Rule("artifactory-api-key-bare", "Artifactory key", "JFrog Artifactory API key",
         _START + r"(AKCp[A-Za-z0-9]{68,70})" + _END, ("akcp",), 'entropy(finding["secret"]) < 3.5', generated=True),
    Rule("canva-client-secret-bare", "API key or token", "Canva client secret",
         _START + r"(cnvca[A-Za-z0-9_\-]{51})" + _END, ("cnvca",), 'entropy(finding["secret"]) < 3.5', generated=True),
    Rule("exoscale-api-key-bare", "API key or token", "Exoscale API key",
         _START + r"(EXO[A-Za-z0-9]{24,30})" + _END, ("exo",), 'entropy(finding["secret"]) < 3.8', generated=True),
    Rule("salesforce-access-token-bare", "Salesforce token", "Salesforce access token",
         _START + r"(00[A-Za-z0-9]{13}![A-Za-z0-9._\-]{80,260})" + _END, ("!",), 'entropy(finding["secret"]) < 3.5'),
    Rule("supabase-secret-key-bare", "Supabase key", "Supabase secret API key",
         _START + r"(sb_secret_[A-Za-z0-9_\-]{31})" + _END, ("sb_secret_",), generated=True),
    # -- webhook URLs whose path is the secret (anyone holding one can post) -------------------
    Rule("zapier-catch-hook", "webhook URL", "Zapier catch hook",
         r"hooks\.zapier\.com/hooks/catch/(\d{4,12}/[A-Za-z0-9]{5,16})", ("hooks.zapier.com",)),
    Rule("make-webhook", "webhook URL", "Make (Integromat) scenario webhook",
         r"hook\.(?:[a-z]{2}\d\.)?(?:make|integromat)\.com/([a-z0-9]{32})" + _END, ("make.com", "integromat.com"),
         'entropy(finding["secret"]) < 3.5'),
    Rule("ifttt-maker-key", "webhook URL", "IFTTT Maker webhooks key",
         r"maker\.ifttt\.com/(?:trigger/[^/\s]+/(?:json/)?with/key|use)/([A-Za-z0-9_\-]{20,64})" + _END,
         ("maker.ifttt.com",)),
    Rule("mattermost-incoming-webhook", "webhook URL", "Mattermost incoming webhook",
         r"https?://[^\s/]+/hooks/([a-z0-9]{26})" + _END, ("/hooks/",), 'entropy(finding["secret"]) < 3.5'),
    Rule("netlify-build-hook", "webhook URL", "Netlify build hook",
         r"api\.netlify\.com/build_hooks/([0-9a-f]{24})" + _END, ("build_hooks",)),
    Rule("vercel-deploy-hook", "webhook URL", "Vercel deploy hook",
         r"api\.vercel\.com/v1/integrations/deploy/(prj_[A-Za-z0-9]{20,40}/[A-Za-z0-9]{8,16})" + _END,
         ("integrations/deploy",)),
    Rule("azure-function-key-url", "webhook URL", "Azure Functions URL with its function key",
         r"\.azurewebsites\.net/api/[^\s?\"']*\?(?:[^\s&\"']*&)*code=([A-Za-z0-9_\-]{40,}={0,2})",
         (".azurewebsites.net",)),
    Rule("teams-incoming-webhook", "webhook URL", "Microsoft Teams (Office 365 connector) incoming webhook",
         r"webhook(?:b2)?/[0-9a-f\-]{36}@[0-9a-f\-]{36}/IncomingWebhook/([0-9a-f]{32})/", ("incomingwebhook",)),
)  # fmt: skip

#: Rule id -> kind named in a refusal, for the rules above.
RULE_KINDS: dict[str, str] = {rule.id: rule.kind for rule in EXTENSION_RULES}
#: Rules whose prefix is short enough that words can follow it ("pa-hypertension-..."):
#: rule id -> the length of that prefix (the rule's keyword), which the check skips.
GENERATED_RULES: dict[str, int] = {rule.id: len(rule.keywords[0]) for rule in EXTENSION_RULES if rule.generated}


def _literal(text: str) -> str:
    if "'''" in text:
        raise ValueError("a rule cannot hold three single quotes")
    return f"'''{text}'''"


def extension_toml() -> str:
    """The engine configuration: its defaults and the rules above."""
    out = ['title = "langgraph-trustmem guard rules"', "", "[extend]", "useDefault = true", ""]
    for rule in EXTENSION_RULES:
        out += [
            "[[rules]]",
            f'id = "{rule.id}"',
            f'description = "{rule.description}"',
            f"regex = {_literal(rule.regex)}",
            'confidence = "high"',
            "keywords = [" + ", ".join(f'"{k}"' for k in rule.keywords) + "]",
        ]
        if rule.filter:
            out.append(f"filter = {_literal(rule.filter)}")
        out.append("")
    return "\n".join(out)


_lock = threading.Lock()
_path: str | None = None


def config_path() -> str:
    """A path the engine can read the configuration from, the same for the whole process
    (the engine caches a compiled configuration per path). On Linux an anonymous in-memory
    file (memfd), so nothing is written to disk; elsewhere a file in a private temporary
    directory, removed at exit. Only the rules are written, never a memory."""
    global _path
    if _path is not None:
        return _path
    with _lock:
        if _path is None:
            data = extension_toml().encode("utf-8")
            path = None
            if hasattr(os, "memfd_create"):
                try:
                    fd = os.memfd_create("trustmem-guard-rules", 0)  # kept open for the process
                    os.write(fd, data)
                    candidate = f"/proc/self/fd/{fd}"
                    if os.path.exists(candidate):
                        path = candidate
                    else:
                        os.close(fd)
                except OSError:
                    path = None
            if path is None:
                directory = tempfile.mkdtemp(prefix="trustmem-guard-")
                path = os.path.join(directory, "rules.toml")
                with open(path, "wb") as f:
                    f.write(data)
                atexit.register(shutil.rmtree, directory, True)
            _path = path
    return _path
