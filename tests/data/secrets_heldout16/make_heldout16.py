#!/usr/bin/env python3
"""Generator for the held-out secret-detector evaluation corpus #16.

FROZEN corpus.  Python 3.11 standard library only.  One random.Random(16162028)
instance drives every choice and the final shuffle, so two runs produce
byte-identical heldout16.jsonl and README.md.

Usage:  python3 make_heldout16.py      (writes next to this file)
"""
import base64
import binascii
import codecs
import gzip
import hashlib
import json
import os
import random
import re
import string
import zlib

SEED = 16162028
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------- alphabets
LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
DIG = string.digits
ALN = UPP + LOW + DIG
HEXL = '0123456789abcdef'
B64 = UPP + LOW + DIG + '+/'
B64U = UPP + LOW + DIG + '-_'
B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
B32 = UPP + '234567'
BECH = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
ALPH = {'a': ALN, 'u': UPP + DIG, 'l': LOW + DIG, 'h': HEXL, 'H': HEXL.upper(),
        'd': DIG, 'b': B64, 'w': B64U, 'm': B58, 't': B32, 'c': LOW, 'C': UPP,
        'e': BECH, 's': ALN + '-_', 'p': ALN + '!#%&*+-=?@^_'}


def ch(seq):
    return R.choice(seq)


def rs(alpha, n):
    return ''.join(R.choice(alpha) for _ in range(n))


def chance(p):
    return R.random() < p


def b64u(b):
    return base64.urlsafe_b64encode(b).rstrip(b'=').decode()


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def uuid4():
    h = '%032x' % R.getrandbits(128)
    h = h[:12] + '4' + h[13:16] + ch('89ab') + h[17:]
    return f'{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}'


def jwt(iss=None, alg=None):
    alg = alg or ch(['HS256', 'RS256', 'ES256', 'HS512'])
    hdr = {'alg': alg, 'typ': 'JWT'}
    if alg != 'HS256' and chance(0.5):
        hdr['kid'] = rs(ALN, 16)
    now = R.randint(1700000000, 1765000000)
    pl = {'sub': ch([str(R.randint(10 ** 5, 10 ** 9)), uuid4(), 'auth0|' + rs(HEXL, 24)]),
          'iat': now, 'exp': now + ch([900, 3600, 86400, 2592000, 31536000])}
    if iss:
        pl['iss'] = iss
    if chance(0.5):
        pl['scope'] = ch(['read write', 'admin', 'api:all', 'openid profile email', 'service_role'])
    siglen = {'HS256': 43, 'HS512': 86, 'RS256': 342, 'ES256': 86}[alg]
    return (b64u(json.dumps(hdr, separators=(',', ':')).encode()) + '.' +
            b64u(json.dumps(pl, separators=(',', ':')).encode()) + '.' + rs(B64U, siglen))


def wrap64(s, w=64):
    return '\n'.join(s[i:i + w] for i in range(0, len(s), w))


def pem(label, prefix, nchars, w=64):
    body = prefix + rs(B64, nchars - len(prefix))
    pad = (-len(body)) % 4
    body = body[:len(body) - pad] + '=' * pad if pad else body
    return f'-----BEGIN {label}-----\n{wrap64(body, w)}\n-----END {label}-----'


def pem_rsa():
    return pem('RSA PRIVATE KEY', 'MIIEowIBAAKCAQEA', R.randint(6, 11) * 64 + R.randint(4, 40))


def pem_ec():
    return pem('EC PRIVATE KEY', 'MHcCAQEEI' + ch('ABCDEFGH'), 227)


def pem_pk8():
    if chance(0.5):
        return pem('PRIVATE KEY', 'MC4CAQAwBQYDK2VwBCIEI', 64)
    return pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', R.randint(6, 10) * 64 + 12)


def pem_dsa():
    return pem('DSA PRIVATE KEY', 'MIIBuwIBAAKBgQ', 5 * 64 + 20)


def pem_openssh():
    return pem('OPENSSH PRIVATE KEY', 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW'
               'QyNTUxOQAAACA', 5 * 70 - 18, 70)


def pem_pgp():
    body = 'lQVYBG' + rs(B64, R.randint(5, 8) * 64)
    return ('-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n' + wrap64(body) + '\n=' + rs(B64, 4) +
            '\n-----END PGP PRIVATE KEY BLOCK-----')


def pem_encrypted():
    body = 'MIIEpAIBAAKCAQEA' + rs(B64, 6 * 64)
    return ('-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,' +
            rs(HEXL.upper(), 32) + '\n\n' + wrap64(body) + '\n-----END RSA PRIVATE KEY-----')


def ppk():
    return ('PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ' + ch(['eddsa-key-2023', 'deploy@build', 'laptop-key']) +
            '\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI' + rs(B64, 39) + '\n' + rs(B64, 20) +
            '\nPrivate-Lines: 1\nAAAAI' + rs(B64, 39) + '\nPrivate-MAC: ' + rs(HEXL, 64))


def jwk_private():
    return json.dumps({'kty': 'EC', 'crv': 'P-256', 'x': rs(B64U, 43), 'y': rs(B64U, 43), 'd': rs(B64U, 43),
                       'kid': rs(ALN, 12)})


def wif():
    if chance(0.4):
        return '5' + ch('HJK') + rs(B58, 49)
    return ch('KL') + rs(B58, 51)


def xprv():
    return 'xprv9s21ZrQH143K' + rs(B58, 95)


def luhn_digit(body):
    s = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


PUBLISHED_TEST_CARDS = ['4242424242424242', '4111111111111111', '4000056655665556', '5555555555554444',
                        '5105105105105100', '378282246310005', '371449635398431', '6011111111111117',
                        '3530111333300000', '30569309025904', '4012888888881881', '5200828282828210',
                        '2223003122003222', '6200000000000005', '4000000000000002', '4000002500003155',
                        '6011000990139424', '3566002020360505', '38520000023237', '4000000000003220']

CARD_BRANDS = [('Visa', ['4'], 16), ('Mastercard', ['51', '52', '53', '54', '55', '2221', '2305', '2720'], 16),
               ('Amex', ['34', '37'], 15), ('Discover', ['6011', '65', '644'], 16),
               ('JCB', ['3528', '3541', '3566', '3589'], 16), ('Diners', ['36', '300', '305'], 14),
               ('UnionPay', ['62'], 16), ('Mir', ['2200', '2202', '2204'], 16), ('Maestro', ['6759', '5018'], 16)]


def card(brand=None):
    while True:
        b = ch(CARD_BRANDS) if brand is None else [x for x in CARD_BRANDS if x[0] == brand][0]
        pre = ch(b[1])
        body = pre + rs(DIG, b[2] - len(pre) - 1)
        num = body + luhn_digit(body)
        if num not in PUBLISHED_TEST_CARDS:
            return b[0], num


def fmt_card(num):
    if len(num) == 15:
        return f'{num[:4]} {num[4:10]} {num[10:]}'
    if len(num) == 14:
        return f'{num[:4]} {num[4:10]} {num[10:]}'
    return ' '.join(num[i:i + 4] for i in range(0, len(num), 4))


def expiry():
    return f'{R.randint(1, 12):02d}/{R.randint(26, 31)}'


def imei():
    body = ch(['35', '86', '01', '99', '49']) + rs(DIG, 12)
    return body + luhn_digit(body)


def isbn13():
    body = ch(['978', '979']) + rs(DIG, 9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


def vin():
    allowed = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'
    return ch(['WVW', '1HG', 'JTD', 'WBA', 'VF1', 'ZFA', 'YV1', 'SAL', 'KMH', '5YJ', 'TMB', 'WDD']) + rs(allowed, 5) + \
        ch(DIG + 'X') + rs(allowed, 2) + rs(DIG, 6)


def iban():
    cc, bban = ch([('DE', lambda: rs(DIG, 18)), ('FR', lambda: rs(DIG, 10) + rs(UPP + DIG, 11) + rs(DIG, 2)),
                   ('GB', lambda: ch(['NWBK', 'BARC', 'LOYD', 'MIDL']) + rs(DIG, 14)),
                   ('NL', lambda: ch(['ABNA', 'INGB', 'RABO']) + rs(DIG, 10)), ('ES', lambda: rs(DIG, 20)),
                   ('IT', lambda: ch(UPP) + rs(DIG, 10) + rs(DIG, 12)), ('BE', lambda: rs(DIG, 12)),
                   ('CH', lambda: rs(DIG, 17)), ('AT', lambda: rs(DIG, 16)), ('PL', lambda: rs(DIG, 24))])
    bban = bban()
    num = ''.join(str(int(c, 36)) for c in bban + cc + '00')
    return f'{cc}{98 - int(num) % 97:02d}{bban}'


def fmt_iban(s):
    return ' '.join(s[i:i + 4] for i in range(0, len(s), 4))


def mac():
    return ':'.join('%02x' % R.getrandbits(8) for _ in range(6))


def btc_addr():
    return ch(['bc1q' + rs(BECH, 38), '1' + rs(B58, 33), '3' + rs(B58, 33), 'bc1p' + rs(BECH, 58)])


def eth_addr():
    return '0x' + ''.join(c.upper() if c.isalpha() and chance(0.5) else c for c in rs(HEXL, 40))


def ssh_pub():
    if chance(0.6):
        return 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI' + rs(B64, 43) + ' ' + ch(NAMES).lower() + '@' + ch(['laptop', 'mbp', 'desktop', 'work'])
    return 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ' + rs(B64, 500) + '= ' + ch(NAMES).lower() + '@' + ch(['laptop', 'nas', 'pi'])


def cert_pem():
    return pem('CERTIFICATE', 'MIID' + ch(['zCCArugAwIBAgIU', 'ITCCAgmgAwIBAgIJAL', 'ozCCAougAwIBAgIQ']), R.randint(6, 12) * 64 + 20)


def pub_pem():
    return pem('PUBLIC KEY', ch(['MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA', 'MCowBQYDK2VwAyEA',
                                 'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE']), R.randint(2, 6) * 64)


def pgp_pub():
    body = 'mQINBG' + rs(B64, R.randint(5, 9) * 64)
    return ('-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n' + wrap64(body) + '\n=' + rs(B64, 4) +
            '\n-----END PGP PUBLIC KEY BLOCK-----')


def pw_strong(n=None):
    n = n or R.randint(12, 24)
    while True:
        s = rs(ALN + '!#$%&*+-=?@^_~', n)
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s) and any(c.islower() for c in s):
            return s


# ---------------------------------------------------------------- pools
NAMES = ['Anna', 'Ben', 'Clara', 'David', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kavya', 'Liam',
         'Maya', 'Noah', 'Olga', 'Pedro', 'Qiang', 'Rosa', 'Sven', 'Tomás', 'Uma', 'Viktor', 'Wen', 'Ximena',
         'Yusuf', 'Zoe', 'Amira', 'Björn', 'Chiara', 'Dmitri', 'Emeka', 'Fatima', 'Giulia', 'Hana', 'Ivan',
         'Jana', 'Kofi', 'Lucía', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Rahul', 'Sofia', 'Tariq', 'Ute', 'Yara',
         'Mehmet', 'Aiko', 'Minh', 'Siosaia', 'Leilani', 'Marek', 'Zsofia', 'Eero', 'Kasia', 'Luca', 'Mia']
SURNAMES = ['Müller', 'Rossi', 'García', 'Dubois', 'Nowak', 'Silva', 'Jansen', 'Andersson', 'Kowalski', 'Yilmaz',
            'Papadopoulos', 'Ivanova', 'Tanaka', 'Kim', 'Nguyen', 'Okafor', 'Haddad', 'Cohen', 'Sharma', 'Chen',
            'Smith', 'Brown', 'Martin', 'Novak', 'Horvat', 'Santos', 'Virtanen', 'Berg', 'Costa', 'Wright']
CITIES = ['Lisbon', 'Berlin', 'Kyoto', 'Lagos', 'Montreal', 'Oslo', 'Porto', 'Seville', 'Krakow', 'Hanoi',
          'Nairobi', 'Lima', 'Valencia', 'Tbilisi', 'Edinburgh', 'Bologna', 'Ghent', 'Bergen', 'Izmir', 'Cusco',
          'Melbourne', 'Austin', 'Chiang Mai', 'Ljubljana', 'Tallinn', 'Marrakesh', 'Busan', 'Cape Town']
SERVICES = ['Netflix', 'Gmail', 'Amazon', 'Instagram', 'Facebook', 'Spotify', 'PayPal', 'Steam', 'iCloud',
            'Outlook', 'LinkedIn', 'Dropbox', 'eBay', 'Booking.com', 'Airbnb', 'Disney+', 'Uber', 'Zoom',
            'the tax portal', 'the school portal', 'the pharmacy app', 'the electricity account', 'Wolt',
            'Revolut', 'N26', 'the gym app', 'Nintendo', 'PlayStation', 'Xbox', 'Duolingo', 'the insurance portal']
BANKS = ['Sparkasse', 'ING', 'BNP Paribas', 'Santander', 'Barclays', 'Monzo', 'Nordea', 'Rabobank', 'PKO BP',
         'Intesa Sanpaolo', 'Caixa', 'Chase', 'HSBC', 'Deutsche Bank', 'Revolut', 'KBC', 'Danske Bank']
WORDS = ['sunflower', 'dragon', 'mango', 'pelican', 'harbor', 'velvet', 'rocket', 'tiger', 'maple', 'cobalt',
         'lantern', 'pirate', 'winter', 'marble', 'falcon', 'cactus', 'biscuit', 'thunder', 'orchid', 'pepper',
         'galaxy', 'meadow', 'walrus', 'saffron', 'tornado', 'pickle', 'zebra', 'copper', 'hazel', 'nugget']
PETS = ['Mimi', 'Rex', 'Bella', 'Luna', 'Max', 'Simba', 'Kiki', 'Bruno', 'Nala', 'Pippa', 'Oreo', 'Felix', 'Coco']
DOMAINS = ['example-shop.com', 'mailbox.org', 'gmail.com', 'outlook.com', 'posteo.de', 'proton.me', 'yahoo.fr',
           'web.de', 'icloud.com', 'acme-corp.io', 'northwind.dev', 'contoso.net']
HOSTS = ['db.internal', 'prod-db-1.cluster-c9x.eu-west-1.rds.amazonaws.com', 'pg.northwind.dev', '10.0.3.17',
         'mysql.acme-corp.io', 'cluster0.ab1cd.mongodb.net', 'redis-prod.cache.local', 'warehouse.contoso.net',
         'db-primary.svc.cluster.local', '172.20.4.9', 'sql-eu.northwind.dev']
DBNAMES = ['app', 'prod', 'orders', 'analytics', 'billing', 'users', 'inventory', 'crm', 'ledger']
USERS = ['admin', 'app_user', 'svc_backend', 'deploy', 'root', 'etl', 'reporting', 'ci-bot', 'postgres', 'webapp']
FILES = ['ubuntu-24.04-desktop-amd64.iso', 'backup-2024-03.tar.gz', 'report_final.pdf', 'app-release.apk',
         'firmware_v2.3.1.bin', 'photos_summer.zip', 'setup.exe', 'model.safetensors', 'dataset.parquet']
REGIONS = ['us-east-1', 'eu-west-1', 'eu-central-1', 'ap-southeast-2', 'us-west-2', 'sa-east-1']
POOLS = {'name': NAMES, 'surname': SURNAMES, 'city': CITIES, 'svc': SERVICES, 'bank': BANKS, 'word': WORDS,
         'pet': PETS, 'domain': DOMAINS, 'host': HOSTS, 'db': DBNAMES, 'user': USERS, 'file': FILES,
         'region': REGIONS}


def date():
    return f'{R.randint(2022, 2026)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}'


def hm():
    return f'{R.randint(7, 22):02d}:{ch(["00", "15", "30", "45", "10", "05", "50"])}'


def phone():
    return ch([lambda: f'+49 {R.randint(151, 179)} {rs(DIG, 7)}', lambda: f'+44 7{rs(DIG, 3)} {rs(DIG, 6)}',
               lambda: f'+33 6 {rs(DIG, 2)} {rs(DIG, 2)} {rs(DIG, 2)} {rs(DIG, 2)}',
               lambda: f'+1 ({R.randint(201, 989)}) {rs(DIG, 3)}-{rs(DIG, 4)}',
               lambda: f'+34 6{rs(DIG, 2)} {rs(DIG, 3)} {rs(DIG, 3)}', lambda: f'+81 90-{rs(DIG, 4)}-{rs(DIG, 4)}',
               lambda: f'+39 3{rs(DIG, 2)} {rs(DIG, 7)}', lambda: f'+48 {rs(DIG, 3)} {rs(DIG, 3)} {rs(DIG, 3)}',
               lambda: f'+351 91{rs(DIG, 1)} {rs(DIG, 3)} {rs(DIG, 3)}', lambda: f'+91 9{rs(DIG, 4)} {rs(DIG, 5)}'])()


def email():
    return f'{ch(NAMES).lower()}.{ch(SURNAMES).lower()}@{ch(DOMAINS)}'.replace('ü', 'ue').replace('í', 'i').replace('á', 'a')


def address():
    return ch([lambda: f'{ch(["Lindenstraße", "Hauptstr.", "Gartenweg"])} {R.randint(1, 120)}, {R.randint(10000, 99999)} {ch(["Berlin", "Köln", "Leipzig"])}',
               lambda: f'{R.randint(1, 300)} {ch(["Maple Ave", "High Street", "Oak Lane", "King St"])}, {ch(["Springfield", "Leeds", "Austin"])} {rs(DIG, 5)}',
               lambda: f'{R.randint(1, 90)} rue {ch(["de la Paix", "Victor Hugo", "des Lilas"])}, {R.randint(10, 95)}{rs(DIG, 3)} {ch(["Lyon", "Nantes", "Paris"])}',
               lambda: f'Calle {ch(["Mayor", "del Sol", "Alcalá"])} {R.randint(1, 200)}, {R.randint(10, 52)}{rs(DIG, 3)} {ch(["Madrid", "Sevilla", "Valencia"])}',
               lambda: f'ul. {ch(["Długa", "Polna", "Kwiatowa"])} {R.randint(1, 80)}, {rs(DIG, 2)}-{rs(DIG, 3)} {ch(["Kraków", "Gdańsk"])}'])()


SPECIAL = {'uuid': uuid4, 'jwt': jwt, 'pemrsa': pem_rsa, 'pemec': pem_ec, 'pempkcs': pem_pk8, 'pemdsa': pem_dsa,
           'openssh': pem_openssh, 'pgppriv': pem_pgp, 'pemenc': pem_encrypted, 'ppk': ppk, 'jwk': jwk_private,
           'wif': wif, 'xprv': xprv, 'pw': pw_strong, 'date': date, 'time': hm, 'phone': phone, 'email': email,
           'address': address, 'imei': imei, 'isbn': isbn13, 'vin': vin, 'iban': lambda: fmt_iban(iban()),
           'mac': mac, 'ip': lambda: '.'.join(str(R.randint(1, 254)) for _ in range(4)), 'btc': btc_addr,
           'eth': eth_addr, 'sshpub': ssh_pub, 'cert': cert_pem, 'pubpem': pub_pem, 'pgppub': pgp_pub,
           'acct': lambda: rs(DIG, 12), 'year': lambda: str(R.randint(1950, 2024)),
           'num': lambda: str(R.randint(2, 999)), 'pct': lambda: f'{R.randint(1, 99)}.{R.randint(0, 9)}%',
           'semver': lambda: f'{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 40)}',
           'last4': lambda: rs(DIG, 4), 'exp': expiry}

TOK = re.compile(r'\{([A-Za-z_]+)(\d*)\}')


def fill(t, **kw):
    def rep(m):
        k, n = m.group(1), m.group(2)
        if k in kw and not n:
            return str(kw[k])
        if n and k in ALPH:
            return rs(ALPH[k], int(n))
        if k in SPECIAL and not n:
            return SPECIAL[k]()
        if k in POOLS and not n:
            return ch(POOLS[k])
        return m.group(0)
    return TOK.sub(rep, t)


# ---------------------------------------------------------------- vendor credential formats
# kind¦Service¦VAR=template¦VAR=template ...   (template codes: {a24} alnum, {h32} hex, {b40} base64 chars,
# {w43} url-safe, {m44} base58, {t52} base32, {l20} lower+digit, {u16} upper+digit, {d6} digits, specials)
def gcp_sa():
    return json.dumps({'type': 'service_account', 'project_id': ch(['acme-prod', 'northwind-data', 'shop-42']) + '-' + rs(DIG, 6),
                       'private_key_id': rs(HEXL, 40),
                       'private_key': pem('PRIVATE KEY', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC', 6 * 64) + '\n',
                       'client_email': f'{ch(["etl", "deployer", "ci"])}@{ch(["acme-prod", "shop-42"])}.iam.gserviceaccount.com',
                       'client_id': rs(DIG, 21)}, indent=1)


def docker_cfg():
    auth = base64.b64encode(f'{ch(USERS)}:{pw_strong()}'.encode()).decode()
    return json.dumps({'auths': {ch(['https://index.docker.io/v1/', 'ghcr.io', 'registry.gitlab.com', 'quay.io']): {'auth': auth}}})


def kubeconfig():
    return ('apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://' + ch(['10.0.0.1:6443', 'k8s.acme-corp.io', 'api.prod.northwind.dev:6443']) +
            '\n  name: prod\nusers:\n- name: admin\n  user:\n    token: ' + jwt('kubernetes/serviceaccount', 'RS256'))


def git_cred():
    return f'https://{ch(USERS)}:ghp_{rs(ALN, 36)}@github.com'


SPECIAL.update({'gcpsa': gcp_sa, 'dockercfg': docker_cfg, 'kubeconfig': kubeconfig, 'gitcred': git_cred})

VENDOR_SPEC = r"""
aws-access-key¦AWS¦AWS_ACCESS_KEY_ID=AKIA{u16}¦AWS_SECRET_ACCESS_KEY={b40}
aws-sts-session¦AWS STS¦AWS_ACCESS_KEY_ID=ASIA{u16}¦AWS_SECRET_ACCESS_KEY={b40}¦AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{b220}
aws-secret-key¦AWS¦aws_secret_access_key={b40}
aws-ses-smtp¦Amazon SES¦SMTP_USER=AKIA{u16}¦SMTP_PASSWORD=B{b43}
aws-cognito-refresh¦Amazon Cognito¦COGNITO_REFRESH_TOKEN=eyJjdHkiOiJKV1QiLCJlbmMiOiJBMjU2R0NNIiwiYWxnIjoiUlNBLU9BRVAifQ.{w342}.{w16}.{w600}.{w22}
aws-mws-auth¦Amazon MWS¦MWS_AUTH_TOKEN=amzn.mws.{uuid}
amazon-sp-refresh¦Amazon Selling Partner¦SP_API_REFRESH_TOKEN=Atzr|{w300}
amazon-lwa-secret¦Login with Amazon¦LWA_CLIENT_SECRET=amzn1.oa2-cs.v1.{h64}
gcp-service-account¦Google Cloud¦GOOGLE_APPLICATION_CREDENTIALS_JSON={gcpsa}
gcp-api-key¦Google Cloud¦GOOGLE_API_KEY=AIza{s35}
gcp-oauth-secret¦Google OAuth¦GOOGLE_CLIENT_ID={d12}-{l32}.apps.googleusercontent.com¦GOOGLE_CLIENT_SECRET=GOCSPX-{s28}
google-oauth-refresh¦Google OAuth¦GOOGLE_REFRESH_TOKEN=1//0{s100}
google-oauth-access¦Google OAuth¦GOOGLE_ACCESS_TOKEN=ya29.a0{s160}
gemini-api-key¦Google Gemini¦GEMINI_API_KEY=AIzaSy{s33}
firebase-fcm-server¦Firebase Cloud Messaging¦FCM_SERVER_KEY=AAAA{s7}:APA91b{s134}
azure-storage-key¦Azure Storage¦AZURE_STORAGE_KEY={b86}==
azure-storage-conn¦Azure Storage¦AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={c10}store;AccountKey={b86}==;EndpointSuffix=core.windows.net
azure-sas-token¦Azure Blob SAS¦AZURE_SAS_URL=https://{c8}data.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlacx&se=2026-12-31T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig={b43}%3D
azure-ad-client-secret¦Azure AD¦AZURE_TENANT_ID={uuid}¦AZURE_CLIENT_ID={uuid}¦AZURE_CLIENT_SECRET={a3}8Q~{s31}
azure-devops-pat¦Azure DevOps¦AZURE_DEVOPS_PAT={t52}
azure-devops-pat-new¦Azure DevOps¦AZDO_PAT={a52}AZDO{a24}
azure-cosmos-key¦Azure Cosmos DB¦COSMOS_ENDPOINT=https://{c8}-cosmos.documents.azure.com:443/¦COSMOS_KEY={b86}==
azure-servicebus-conn¦Azure Service Bus¦SERVICEBUS_CONNECTION=Endpoint=sb://{c8}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b43}=
azure-eventhub-conn¦Azure Event Hubs¦EVENTHUB_CONNECTION=Endpoint=sb://{c8}-eh.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b43}=;EntityPath=telemetry
azure-function-key¦Azure Functions¦FUNCTION_URL=https://{c8}-func.azurewebsites.net/api/ingest?code={w54}==
azure-openai-key¦Azure OpenAI¦AZURE_OPENAI_ENDPOINT=https://{c8}-oai.openai.azure.com/¦AZURE_OPENAI_API_KEY={h32}
azure-search-admin¦Azure AI Search¦AZURE_SEARCH_ADMIN_KEY={a52}AzSe{a8}
azure-signalr-conn¦Azure SignalR¦AZURE_SIGNALR=Endpoint=https://{c8}.service.signalr.net;AccessKey={b43}=;Version=1.0;
azure-iothub-conn¦Azure IoT Hub¦IOTHUB_CONNECTION=HostName={c8}-hub.azure-devices.net;SharedAccessKeyName=iothubowner;SharedAccessKey={b43}=
azure-appinsights-conn¦Azure Monitor¦APPINSIGHTS_API_KEY={l40}
alibaba-access-key¦Alibaba Cloud¦ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI5t{a18}¦ALIBABA_CLOUD_ACCESS_KEY_SECRET={a30}
tencent-secret¦Tencent Cloud¦TENCENTCLOUD_SECRET_ID=AKID{a32}¦TENCENTCLOUD_SECRET_KEY={a32}
huawei-ak-sk¦Huawei Cloud¦HUAWEICLOUD_SDK_AK={u20}¦HUAWEICLOUD_SDK_SK={a40}
ibm-cloud-api-key¦IBM Cloud¦IBMCLOUD_API_KEY={s44}
oci-api-key¦Oracle Cloud¦OCI_USER=ocid1.user.oc1..aaaaaaaa{c52}¦OCI_FINGERPRINT=12:3f:aa:09:be:77:c4:1d:90:5e:ab:cd:ef:01:23:45¦OCI_PRIVATE_KEY={pempkcs}
digitalocean-pat¦DigitalOcean¦DIGITALOCEAN_TOKEN=dop_v1_{h64}
digitalocean-oauth¦DigitalOcean¦DO_OAUTH_TOKEN=doo_v1_{h64}
digitalocean-refresh¦DigitalOcean¦DO_REFRESH_TOKEN=dor_v1_{h64}
digitalocean-spaces¦DigitalOcean Spaces¦SPACES_KEY=DO00{u16}¦SPACES_SECRET={b43}
linode-token¦Linode¦LINODE_TOKEN={h64}
vultr-api-key¦Vultr¦VULTR_API_KEY={u36}
hetzner-token¦Hetzner Cloud¦HCLOUD_TOKEN={a64}
scaleway-secret¦Scaleway¦SCW_ACCESS_KEY=SCW{u17}¦SCW_SECRET_KEY={uuid}
ovh-app-secret¦OVHcloud¦OVH_APPLICATION_KEY={a16}¦OVH_APPLICATION_SECRET={a32}¦OVH_CONSUMER_KEY={a32}
upcloud-password¦UpCloud¦UPCLOUD_USERNAME=api-{c6}¦UPCLOUD_PASSWORD={pw}
exoscale-key¦Exoscale¦EXOSCALE_API_KEY=EXO{h24}¦EXOSCALE_API_SECRET={w43}
cloudflare-api-token¦Cloudflare¦CLOUDFLARE_API_TOKEN={s40}
cloudflare-global-key¦Cloudflare¦CLOUDFLARE_EMAIL={email}¦CLOUDFLARE_API_KEY={h37}
cloudflare-origin-ca¦Cloudflare¦CF_ORIGIN_CA_KEY=v1.0-{h24}-{h146}
cloudflare-tunnel-token¦Cloudflare Tunnel¦TUNNEL_TOKEN=eyJhIjoi{b160}
cloudflare-r2¦Cloudflare R2¦R2_ACCESS_KEY_ID={h32}¦R2_SECRET_ACCESS_KEY={h64}
fastly-api-token¦Fastly¦FASTLY_API_TOKEN={s32}
akamai-edgegrid¦Akamai¦client_secret = {b43}=¦host = akab-{l16}-{l16}.luna.akamaiapis.net¦access_token = akab-{l16}-{l16}¦client_token = akab-{l16}-{l16}
heroku-api-key¦Heroku¦HEROKU_API_KEY={uuid}
heroku-hrku-token¦Heroku¦HEROKU_API_KEY=HRKU-{s60}
netlify-pat¦Netlify¦NETLIFY_AUTH_TOKEN=nfp_{a36}
vercel-token¦Vercel¦VERCEL_TOKEN={a24}
render-api-key¦Render¦RENDER_API_KEY=rnd_{a32}
flyio-token¦Fly.io¦FLY_API_TOKEN=FlyV1 fm2_{w300}
railway-token¦Railway¦RAILWAY_TOKEN={uuid}
supabase-service-role¦Supabase¦SUPABASE_SERVICE_ROLE_KEY={jwt}
supabase-pat¦Supabase¦SUPABASE_ACCESS_TOKEN=sbp_{h40}
supabase-db-url¦Supabase¦DATABASE_URL=postgresql://postgres.{c20}:{pw}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres
planetscale-token¦PlanetScale¦PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{w43}
planetscale-password¦PlanetScale¦DATABASE_PASSWORD=pscale_pw_{w43}
planetscale-oauth¦PlanetScale¦PSCALE_OAUTH=pscale_oauth_{w43}
neon-api-key¦Neon¦NEON_API_KEY=napi_{l64}
neon-db-url¦Neon¦DATABASE_URL=postgres://{user}:npg_{a12}@ep-{c6}-{c6}-{l8}.eu-central-1.aws.neon.tech/neondb?sslmode=require
upstash-redis-token¦Upstash Redis¦UPSTASH_REDIS_REST_URL=https://{c6}-{c6}-{d5}.upstash.io¦UPSTASH_REDIS_REST_TOKEN=A{s87}=
upstash-qstash¦Upstash QStash¦QSTASH_TOKEN=ey{b120}=¦QSTASH_CURRENT_SIGNING_KEY=sig_{a28}
mongodb-atlas-api¦MongoDB Atlas¦ATLAS_PUBLIC_KEY={c8}¦ATLAS_PRIVATE_KEY={uuid}
mongodb-srv-url¦MongoDB¦MONGODB_URI=mongodb+srv://{user}:{pw}@cluster0.{l5}.mongodb.net/{db}?retryWrites=true&w=majority
mongodb-url¦MongoDB¦MONGO_URL=mongodb://{user}:{pw}@{host}:27017/{db}?authSource=admin
backblaze-b2¦Backblaze B2¦B2_APPLICATION_KEY_ID=005{h22}¦B2_APPLICATION_KEY=K005{a27}
wasabi-keys¦Wasabi¦WASABI_ACCESS_KEY={u20}¦WASABI_SECRET_KEY={a40}
minio-keys¦MinIO¦MINIO_ROOT_USER={c8}admin¦MINIO_ROOT_PASSWORD={pw}
cloudinary-url¦Cloudinary¦CLOUDINARY_URL=cloudinary://{d15}:{w27}@{c8}
pulumi-token¦Pulumi¦PULUMI_ACCESS_TOKEN=pul-{h40}
terraform-cloud-token¦Terraform Cloud¦TFE_TOKEN={a14}.atlasv1.{a67}
vault-service-token¦HashiCorp Vault¦VAULT_TOKEN=hvs.{s90}
vault-batch-token¦HashiCorp Vault¦VAULT_TOKEN=hvb.{s138}
vault-legacy-token¦HashiCorp Vault¦VAULT_TOKEN=s.{a24}
vault-unseal-key¦HashiCorp Vault¦Unseal Key 1={b44}
doppler-personal¦Doppler¦DOPPLER_TOKEN=dp.pt.{a43}
doppler-service¦Doppler¦DOPPLER_TOKEN=dp.st.prd.{a43}
doppler-cli¦Doppler¦DOPPLER_TOKEN=dp.ct.{a43}
doppler-scim¦Doppler¦DOPPLER_SCIM=dp.scim.{a43}
infisical-token¦Infisical¦INFISICAL_TOKEN=st.{uuid}.{h32}.{h32}
onepassword-sa¦1Password¦OP_SERVICE_ACCOUNT_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIs{b300}
onepassword-connect¦1Password Connect¦OP_CONNECT_TOKEN={jwt}
bitwarden-sm¦Bitwarden Secrets Manager¦BWS_ACCESS_TOKEN=0.{uuid}.{a30}:{b22}==
akeyless-key¦Akeyless¦AKEYLESS_ACCESS_ID=p-{l12}¦AKEYLESS_ACCESS_KEY={b43}=
stripe-live-secret¦Stripe¦STRIPE_SECRET_KEY=sk_live_51{a97}
stripe-restricted¦Stripe¦STRIPE_RESTRICTED_KEY=rk_live_51{a97}
stripe-webhook-secret¦Stripe¦STRIPE_WEBHOOK_SECRET=whsec_{a32}
stripe-connect-oauth¦Stripe Connect¦STRIPE_CONNECT_ACCESS=sk_live_{a24}
paypal-client-secret¦PayPal¦PAYPAL_CLIENT_ID=A{s79}¦PAYPAL_CLIENT_SECRET=E{s79}
braintree-access-token¦Braintree¦BRAINTREE_ACCESS_TOKEN=access_token$production${l16}${h32}
braintree-private-key¦Braintree¦BT_MERCHANT_ID={l16}¦BT_PUBLIC_KEY={l16}¦BT_PRIVATE_KEY={h32}
square-access-token¦Square¦SQUARE_ACCESS_TOKEN=EAAA{w60}
square-oauth-secret¦Square¦SQUARE_APP_SECRET=sq0csp-{w43}
adyen-api-key¦Adyen¦ADYEN_API_KEY=AQE{w9}+{w24}+{w40}/{w60}=-{w40}
checkout-secret¦Checkout.com¦CKO_SECRET_KEY=sk_{uuid}
razorpay-keys¦Razorpay¦RAZORPAY_KEY_ID=rzp_live_{a14}¦RAZORPAY_KEY_SECRET={a24}
paystack-secret¦Paystack¦PAYSTACK_SECRET_KEY=sk_live_{h40}
flutterwave-secret¦Flutterwave¦FLW_SECRET_KEY=FLWSECK-{h32}-X¦FLW_ENCRYPTION_KEY={h12}
mollie-live-key¦Mollie¦MOLLIE_API_KEY=live_{a30}
gocardless-token¦GoCardless¦GOCARDLESS_ACCESS_TOKEN=live_{s40}
shopify-admin-token¦Shopify¦SHOPIFY_ADMIN_TOKEN=shpat_{h32}
shopify-shared-secret¦Shopify¦SHOPIFY_API_SECRET=shpss_{h32}
shopify-custom-app¦Shopify¦SHOPIFY_CUSTOM_APP_TOKEN=shpca_{h32}
shopify-private-app¦Shopify¦SHOPIFY_PRIVATE_APP_PASSWORD=shppa_{h32}
plaid-secret¦Plaid¦PLAID_CLIENT_ID={h24}¦PLAID_SECRET={h30}
plaid-access-token¦Plaid¦PLAID_ACCESS_TOKEN=access-production-{uuid}
mercadopago-token¦Mercado Pago¦MP_ACCESS_TOKEN=APP_USR-{d16}-{d6}-{h32}-{d9}
authorizenet-key¦Authorize.Net¦AUTHNET_LOGIN_ID={a10}¦AUTHNET_TRANSACTION_KEY={a16}
wise-api-token¦Wise¦WISE_API_TOKEN={uuid}
paddle-api-key¦Paddle¦PADDLE_API_KEY=pdl_live_apikey_{l26}_{a22}_{a3}
lemonsqueezy-key¦Lemon Squeezy¦LEMONSQUEEZY_API_KEY={jwt}
chargebee-key¦Chargebee¦CHARGEBEE_API_KEY=live_{a34}
recurly-key¦Recurly¦RECURLY_API_KEY={h32}
xendit-secret¦Xendit¦XENDIT_SECRET_KEY=xnd_production_{a60}
midtrans-server-key¦Midtrans¦MIDTRANS_SERVER_KEY=Mid-server-{s24}
coinbase-commerce¦Coinbase Commerce¦COMMERCE_API_KEY={uuid}¦COMMERCE_WEBHOOK_SECRET={uuid}
klarna-credentials¦Klarna¦KLARNA_USERNAME=K{d6}_{h12}¦KLARNA_PASSWORD={a16}
alipay-private-key¦Alipay¦ALIPAY_APP_ID=2021{d12}¦ALIPAY_PRIVATE_KEY={pemrsa}
twint-cert-pass¦TWINT¦TWINT_CERT_PASSWORD={pw}
bigcommerce-token¦BigCommerce¦BC_ACCESS_TOKEN={l31}¦BC_CLIENT_SECRET={h64}
woocommerce-keys¦WooCommerce¦WC_CONSUMER_KEY=ck_{h40}¦WC_CONSUMER_SECRET=cs_{h40}
ebay-client-secret¦eBay¦EBAY_APP_ID={c8}-{c8}-PRD-{h9}-{h8}¦EBAY_CERT_ID=PRD-{h12}-{h4}-{h4}-{h4}-{h4}
etsy-keystring¦Etsy¦ETSY_KEYSTRING={l24}¦ETSY_SHARED_SECRET={l10}
github-pat-classic¦GitHub¦GITHUB_TOKEN=ghp_{a36}
github-pat-fine¦GitHub¦GITHUB_TOKEN=github_pat_11{u20}_{a59}
github-oauth-token¦GitHub¦GH_OAUTH_TOKEN=gho_{a36}
github-user-to-server¦GitHub App¦GH_USER_TOKEN=ghu_{a36}
github-server-to-server¦GitHub App¦GH_INSTALLATION_TOKEN=ghs_{a36}
github-refresh-token¦GitHub App¦GH_REFRESH_TOKEN=ghr_{a76}
github-app-private-key¦GitHub App¦GITHUB_APP_ID={d6}¦GITHUB_APP_PRIVATE_KEY={pemrsa}
github-oauth-app-secret¦GitHub OAuth App¦GITHUB_CLIENT_ID=Iv1.{h16}¦GITHUB_CLIENT_SECRET={h40}
github-webhook-secret¦GitHub Webhooks¦GITHUB_WEBHOOK_SECRET={h40}
git-credentials-url¦Git¦git credential={gitcred}
gitlab-pat¦GitLab¦GITLAB_TOKEN=glpat-{s20}
gitlab-pat-new¦GitLab¦GITLAB_TOKEN=glpat-{s27}.01.{l9}
gitlab-deploy-token¦GitLab¦GITLAB_DEPLOY_TOKEN=gldt-{s20}
gitlab-runner-token¦GitLab¦CI_RUNNER_TOKEN=glrt-{s20}
gitlab-runner-registration¦GitLab¦REGISTRATION_TOKEN=GR1348941{s20}
gitlab-trigger-token¦GitLab¦TRIGGER_TOKEN=glptt-{h40}
gitlab-feed-token¦GitLab¦GITLAB_FEED_TOKEN=glft-{s20}
gitlab-oauth-secret¦GitLab¦GITLAB_APP_SECRET=gloas-{h64}
gitlab-scim-token¦GitLab¦GITLAB_SCIM=glsoat-{s20}
gitlab-cicd-job-token¦GitLab¦CI_JOB_TOKEN=glcbt-{h2}_{s20}
gitlab-incoming-mail¦GitLab¦INCOMING_EMAIL_TOKEN=glimt-{l25}
gitlab-agent-token¦GitLab¦KAS_AGENT_TOKEN=glagent-{s50}
bitbucket-app-password¦Bitbucket¦BITBUCKET_USERNAME={user}¦BITBUCKET_APP_PASSWORD=ATBB{a32}{H8}
bitbucket-access-token¦Bitbucket¦BITBUCKET_ACCESS_TOKEN=ATCTT3xFfGN0{s180}={H8}
atlassian-api-token¦Atlassian¦JIRA_EMAIL={email}¦JIRA_API_TOKEN=ATATT3xFfGF0{s180}={H8}
atlassian-legacy-token¦Atlassian¦CONFLUENCE_API_TOKEN={a24}
linear-api-key¦Linear¦LINEAR_API_KEY=lin_api_{a40}
linear-oauth¦Linear¦LINEAR_OAUTH_TOKEN=lin_oauth_{h64}
asana-pat¦Asana¦ASANA_PAT=2/{d16}/{d16}:{h32}
asana-pat-legacy¦Asana¦ASANA_TOKEN=1/{d16}:{h32}
notion-integration¦Notion¦NOTION_TOKEN=secret_{a43}
notion-ntn¦Notion¦NOTION_API_KEY=ntn_{d11}{a35}
airtable-pat¦Airtable¦AIRTABLE_PAT=pat{a14}.{h64}
airtable-legacy-key¦Airtable¦AIRTABLE_API_KEY=key{a14}
trello-token¦Trello¦TRELLO_KEY={h32}¦TRELLO_TOKEN=ATTA{h64}{H8}
monday-token¦monday.com¦MONDAY_API_TOKEN={jwt}
clickup-token¦ClickUp¦CLICKUP_API_TOKEN=pk_{d8}_{u32}
todoist-token¦Todoist¦TODOIST_API_TOKEN={h40}
figma-pat¦Figma¦FIGMA_TOKEN=figd_{w40}
miro-token¦Miro¦MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{w27}
zoom-s2s-secret¦Zoom¦ZOOM_ACCOUNT_ID={w22}¦ZOOM_CLIENT_ID={w22}¦ZOOM_CLIENT_SECRET={a32}
calendly-pat¦Calendly¦CALENDLY_TOKEN={jwt}
typeform-token¦Typeform¦TYPEFORM_TOKEN=tfp_{a44}_{a14}
surveymonkey-token¦SurveyMonkey¦SURVEYMONKEY_ACCESS_TOKEN={w70}
docusign-secret¦DocuSign¦DOCUSIGN_INTEGRATION_KEY={uuid}¦DOCUSIGN_SECRET_KEY={uuid}
dropbox-token¦Dropbox¦DROPBOX_ACCESS_TOKEN=sl.{w135}
dropbox-refresh¦Dropbox¦DROPBOX_APP_KEY={l15}¦DROPBOX_APP_SECRET={l15}¦DROPBOX_REFRESH_TOKEN={w64}
box-client-secret¦Box¦BOX_CLIENT_ID={l32}¦BOX_CLIENT_SECRET={a32}
slack-bot-token¦Slack¦SLACK_BOT_TOKEN=xoxb-{d12}-{d13}-{a24}
slack-user-token¦Slack¦SLACK_USER_TOKEN=xoxp-{d12}-{d12}-{d13}-{h32}
slack-app-token¦Slack¦SLACK_APP_TOKEN=xapp-1-A{u10}-{d13}-{h64}
slack-config-token¦Slack¦SLACK_CONFIG_TOKEN=xoxe.xoxp-1-{a160}
slack-refresh-token¦Slack¦SLACK_REFRESH_TOKEN=xoxe-1-{a140}
slack-webhook¦Slack¦SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{u8}/B{u10}/{a24}
slack-workflow-webhook¦Slack¦SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{u8}/{d13}/{h32}
slack-signing-secret¦Slack¦SLACK_SIGNING_SECRET={h32}
discord-bot-token¦Discord¦DISCORD_TOKEN=M{w25}.{w6}.{w38}
discord-webhook¦Discord¦DISCORD_WEBHOOK=https://discord.com/api/webhooks/{d19}/{w68}
discord-client-secret¦Discord¦DISCORD_CLIENT_ID={d19}¦DISCORD_CLIENT_SECRET={w32}
telegram-bot-token¦Telegram¦TELEGRAM_BOT_TOKEN={d10}:AA{w33}
teams-webhook¦Microsoft Teams¦TEAMS_WEBHOOK=https://{c8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h32}/{uuid}/V2{w45}
teams-workflow-url¦Power Automate¦FLOW_URL=https://prod-{d2}.westeurope.logic.azure.com:443/workflows/{h32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={w43}
google-chat-webhook¦Google Chat¦GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{w7}/messages?key=AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI&token={w43}%3D
mattermost-token¦Mattermost¦MATTERMOST_TOKEN={l26}
mattermost-webhook¦Mattermost¦MM_WEBHOOK=https://chat.{domain}/hooks/{l26}
rocketchat-token¦Rocket.Chat¦ROCKETCHAT_USER_ID={a17}¦ROCKETCHAT_AUTH_TOKEN={w43}
matrix-access-token¦Matrix¦MATRIX_ACCESS_TOKEN=syt_{b10}_{a20}_{a6}
zulip-api-key¦Zulip¦ZULIP_API_KEY={a32}
line-channel-token¦LINE¦LINE_CHANNEL_SECRET={h32}¦LINE_CHANNEL_ACCESS_TOKEN={b172}=
whatsapp-cloud-token¦WhatsApp Cloud API¦WHATSAPP_TOKEN=EAAG{a200}
facebook-page-token¦Facebook¦FB_PAGE_ACCESS_TOKEN=EAAB{a180}
facebook-app-secret¦Facebook¦FB_APP_ID={d15}¦FB_APP_SECRET={h32}
instagram-token¦Instagram¦IG_ACCESS_TOKEN=IGQV{w180}
twitter-bearer¦X / Twitter¦TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{a28}%3D{a50}
twitter-api-secret¦X / Twitter¦TWITTER_API_KEY={a25}¦TWITTER_API_SECRET={a50}¦TWITTER_ACCESS_TOKEN={d19}-{a31}¦TWITTER_ACCESS_SECRET={a45}
linkedin-client-secret¦LinkedIn¦LINKEDIN_CLIENT_ID={l14}¦LINKEDIN_CLIENT_SECRET=WPL_AP1.{a16}.{b8}==
pinterest-token¦Pinterest¦PINTEREST_TOKEN=pina_{u96}
reddit-secret¦Reddit¦REDDIT_CLIENT_ID={w22}¦REDDIT_CLIENT_SECRET={w30}
spotify-client-secret¦Spotify¦SPOTIPY_CLIENT_ID={h32}¦SPOTIPY_CLIENT_SECRET={h32}
twitch-oauth¦Twitch¦TWITCH_OAUTH=oauth:{l30}
twitch-client-secret¦Twitch¦TWITCH_CLIENT_SECRET={l30}
tiktok-secret¦TikTok for Developers¦TIKTOK_CLIENT_KEY=aw{l14}¦TIKTOK_CLIENT_SECRET={a32}
youtube-oauth¦YouTube Data API¦YT_REFRESH_TOKEN=1//09{s100}
twilio-auth-token¦Twilio¦TWILIO_ACCOUNT_SID=AC{h32}¦TWILIO_AUTH_TOKEN={h32}
twilio-api-key¦Twilio¦TWILIO_API_KEY=SK{h32}¦TWILIO_API_SECRET={a32}
sendgrid-api-key¦SendGrid¦SENDGRID_API_KEY=SG.{w22}.{w43}
mailgun-api-key¦Mailgun¦MAILGUN_API_KEY=key-{h32}
mailgun-api-key-new¦Mailgun¦MAILGUN_API_KEY={h32}-{h8}-{h8}
mailgun-webhook-key¦Mailgun¦MAILGUN_WEBHOOK_SIGNING_KEY={h32}
mailchimp-api-key¦Mailchimp¦MAILCHIMP_API_KEY={h32}-us{d2}
mandrill-key¦Mandrill¦MANDRILL_API_KEY=md-{w22}
postmark-server-token¦Postmark¦POSTMARK_SERVER_TOKEN={uuid}
sparkpost-key¦SparkPost¦SPARKPOST_API_KEY={h40}
brevo-api-key¦Brevo¦BREVO_API_KEY=xkeysib-{h64}-{a16}
brevo-smtp-key¦Brevo¦BREVO_SMTP_KEY=xsmtpsib-{h64}-{a16}
mailjet-keys¦Mailjet¦MJ_APIKEY_PUBLIC={h32}¦MJ_APIKEY_PRIVATE={h32}
resend-api-key¦Resend¦RESEND_API_KEY=re_{a8}_{a24}
mailersend-token¦MailerSend¦MAILERSEND_API_TOKEN=mlsn.{h64}
loops-api-key¦Loops¦LOOPS_API_KEY={h32}
messagebird-key¦MessageBird¦MESSAGEBIRD_ACCESS_KEY={a25}
vonage-keys¦Vonage¦VONAGE_API_KEY={h8}¦VONAGE_API_SECRET={a16}
plivo-auth¦Plivo¦PLIVO_AUTH_ID=MA{u18}¦PLIVO_AUTH_TOKEN={a40}
sinch-secret¦Sinch¦SINCH_KEY_ID={uuid}¦SINCH_KEY_SECRET={w26}
telnyx-key¦Telnyx¦TELNYX_API_KEY=KEY{H32}_{a22}
bandwidth-creds¦Bandwidth¦BW_USERNAME={user}¦BW_PASSWORD={pw}
pusher-secret¦Pusher¦PUSHER_APP_ID={d7}¦PUSHER_KEY={h20}¦PUSHER_SECRET={h20}
ably-key¦Ably¦ABLY_API_KEY={w6}.{w6}:{w43}
stream-secret¦Stream¦STREAM_API_KEY={l12}¦STREAM_API_SECRET={l64}
sendbird-token¦Sendbird¦SENDBIRD_API_TOKEN={h40}
agora-certificate¦Agora¦AGORA_APP_ID={h32}¦AGORA_APP_CERTIFICATE={h32}
mux-token¦Mux¦MUX_TOKEN_ID={uuid}¦MUX_TOKEN_SECRET={a75}
vimeo-token¦Vimeo¦VIMEO_ACCESS_TOKEN={h32}
onesignal-rest-key¦OneSignal¦ONESIGNAL_REST_API_KEY=os_v2_app_{l100}
onesignal-legacy-key¦OneSignal¦ONESIGNAL_API_KEY={a48}
expo-access-token¦Expo¦EXPO_TOKEN={s40}
apple-app-store-key¦App Store Connect¦ASC_KEY_ID={u10}¦ASC_ISSUER_ID={uuid}¦ASC_PRIVATE_KEY={pemec}
apns-auth-key¦Apple Push Notifications¦APNS_KEY_ID={u10}¦APNS_TEAM_ID={u10}¦APNS_AUTH_KEY={pemec}
intercom-token¦Intercom¦INTERCOM_ACCESS_TOKEN=dG9rOj{b54}=
zendesk-token¦Zendesk¦ZENDESK_EMAIL={email}¦ZENDESK_API_TOKEN={a40}
freshdesk-key¦Freshdesk¦FRESHDESK_API_KEY={a20}
helpscout-secret¦Help Scout¦HELPSCOUT_APP_ID={a32}¦HELPSCOUT_APP_SECRET={a32}
front-token¦Front¦FRONT_API_TOKEN={jwt}
gorgias-key¦Gorgias¦GORGIAS_API_KEY={h64}
hubspot-private-app¦HubSpot¦HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}
hubspot-private-app-eu¦HubSpot¦HUBSPOT_ACCESS_TOKEN=pat-eu1-{uuid}
hubspot-legacy-key¦HubSpot¦HUBSPOT_API_KEY={uuid}
salesforce-session¦Salesforce¦SF_ACCESS_TOKEN=00D{a12}!{a96}
salesforce-consumer-secret¦Salesforce¦SF_CONSUMER_KEY=3MVG9{w80}¦SF_CONSUMER_SECRET={H64}
salesforce-password-token¦Salesforce¦SF_USERNAME={email}¦SF_PASSWORD={pw}¦SF_SECURITY_TOKEN={a24}
pipedrive-token¦Pipedrive¦PIPEDRIVE_API_TOKEN={h40}
zoho-refresh-token¦Zoho¦ZOHO_CLIENT_ID=1000.{u30}¦ZOHO_CLIENT_SECRET={h42}¦ZOHO_REFRESH_TOKEN=1000.{h32}.{h32}
close-api-key¦Close CRM¦CLOSE_API_KEY=api_{a22}.{a22}
copper-key¦Copper CRM¦COPPER_API_KEY={h32}
attio-key¦Attio¦ATTIO_API_KEY={h64}
freshsales-key¦Freshsales¦FRESHSALES_API_KEY={w22}
klaviyo-private-key¦Klaviyo¦KLAVIYO_PRIVATE_KEY=pk_{h34}
activecampaign-key¦ActiveCampaign¦AC_API_KEY={h72}
convertkit-secret¦Kit (ConvertKit)¦CONVERTKIT_API_SECRET={w43}
constantcontact-secret¦Constant Contact¦CTCT_CLIENT_SECRET={w22}
campaignmonitor-key¦Campaign Monitor¦CM_API_KEY={b64}==
customerio-app-key¦Customer.io¦CUSTOMERIO_APP_API_KEY={h32}
braze-rest-key¦Braze¦BRAZE_REST_API_KEY={uuid}
iterable-key¦Iterable¦ITERABLE_API_KEY={h32}
mixpanel-secret¦Mixpanel¦MIXPANEL_API_SECRET={h32}¦MIXPANEL_SERVICE_ACCOUNT_SECRET={a32}
amplitude-secret¦Amplitude¦AMPLITUDE_API_KEY={h32}¦AMPLITUDE_SECRET_KEY={h32}
heap-key¦Heap¦HEAP_API_KEY={uuid}
fullstory-key¦FullStory¦FULLSTORY_API_KEY=na1.{b120}=
posthog-personal-key¦PostHog¦POSTHOG_PERSONAL_API_KEY=phx_{a43}
statsig-secret¦Statsig¦STATSIG_SERVER_SECRET=secret-{a43}
launchdarkly-sdk¦LaunchDarkly¦LD_SDK_KEY=sdk-{uuid}
launchdarkly-api¦LaunchDarkly¦LD_API_KEY=api-{uuid}
split-key¦Split¦SPLIT_SERVER_KEY={l36}
optimizely-token¦Optimizely¦OPTIMIZELY_TOKEN=2:{w43}
flagsmith-server¦Flagsmith¦FLAGSMITH_SERVER_KEY=ser.{a22}
configcat-sdk¦ConfigCat¦CONFIGCAT_SDK_KEY=configcat-sdk-1/{w22}/{w22}
unleash-token¦Unleash¦UNLEASH_API_TOKEN=*:production.{h56}
algolia-admin¦Algolia¦ALGOLIA_APP_ID={u10}¦ALGOLIA_ADMIN_KEY={h32}
typesense-admin¦Typesense¦TYPESENSE_API_KEY={a32}
meilisearch-master¦Meilisearch¦MEILI_MASTER_KEY={s32}
elastic-cloud-key¦Elastic Cloud¦ELASTIC_API_KEY={b60}==
elastic-password¦Elasticsearch¦ELASTICSEARCH_URL=https://elastic:{pw}@{c8}.es.{region}.aws.found.io:9243
mapbox-secret¦Mapbox¦MAPBOX_SECRET_TOKEN=sk.eyJ1Ijoi{b60}.{w22}
google-maps-key¦Google Maps Platform¦GOOGLE_MAPS_API_KEY=AIzaSy{s33}
here-api-key¦HERE¦HERE_API_KEY={w43}
tomtom-key¦TomTom¦TOMTOM_API_KEY={a32}
openweather-key¦OpenWeather¦OPENWEATHER_API_KEY={h32}
newsapi-key¦NewsAPI¦NEWSAPI_KEY={h32}
alphavantage-key¦Alpha Vantage¦ALPHAVANTAGE_API_KEY={u16}
polygon-key¦Polygon.io¦POLYGON_API_KEY={a32}
finnhub-key¦Finnhub¦FINNHUB_API_KEY={l20}
iex-secret¦IEX Cloud¦IEX_SECRET_TOKEN=sk_{h32}
contentful-cma¦Contentful¦CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{w43}
contentful-delivery¦Contentful¦CONTENTFUL_SPACE_ID={l12}¦CONTENTFUL_DELIVERY_TOKEN={w43}
sanity-token¦Sanity¦SANITY_API_TOKEN=sk{a180}
storyblok-token¦Storyblok¦STORYBLOK_MANAGEMENT_TOKEN={a22}-{d6}-{a20}
ghost-admin-key¦Ghost¦GHOST_ADMIN_API_KEY={h24}:{h64}
wordpress-app-password¦WordPress¦WP_USER={user}¦WP_APP_PASSWORD={a4} {a4} {a4} {a4} {a4} {a4}
strapi-token¦Strapi¦STRAPI_API_TOKEN={h256}
prismic-token¦Prismic¦PRISMIC_ACCESS_TOKEN=MC5{b80}
okta-api-token¦Okta¦OKTA_ORG_URL=https://{c8}.okta.com¦OKTA_API_TOKEN=00{s40}
auth0-client-secret¦Auth0¦AUTH0_DOMAIN={c8}.eu.auth0.com¦AUTH0_CLIENT_ID={a32}¦AUTH0_CLIENT_SECRET={s64}
auth0-mgmt-token¦Auth0 Management API¦AUTH0_MGMT_TOKEN={jwt}
clerk-secret¦Clerk¦CLERK_SECRET_KEY=sk_live_{a40}
stytch-secret¦Stytch¦STYTCH_PROJECT_ID=project-live-{uuid}¦STYTCH_SECRET=secret-live-{w36}
keycloak-client-secret¦Keycloak¦KEYCLOAK_CLIENT_SECRET={a32}
onelogin-secret¦OneLogin¦ONELOGIN_CLIENT_ID={h64}¦ONELOGIN_CLIENT_SECRET={h64}
duo-secret¦Duo Security¦DUO_IKEY=DI{u18}¦DUO_SKEY={a40}¦DUO_HOST=api-{h8}.duosecurity.com
yubico-secret¦Yubico OTP API¦YUBICO_CLIENT_ID={d5}¦YUBICO_SECRET_KEY={b27}=
authy-api-key¦Authy¦AUTHY_API_KEY={a32}
recaptcha-secret¦Google reCAPTCHA¦RECAPTCHA_SECRET_KEY=6L{s38}
hcaptcha-secret¦hCaptcha¦HCAPTCHA_SECRET=0x{h40}
turnstile-secret¦Cloudflare Turnstile¦TURNSTILE_SECRET_KEY=0x4AAAAAAA{s24}
firebase-admin-sa¦Firebase Admin¦FIREBASE_SERVICE_ACCOUNT={gcpsa}
fauna-secret¦Fauna¦FAUNA_SECRET=fnA{w37}
convex-deploy-key¦Convex¦CONVEX_DEPLOY_KEY=prod:{c6}-{c6}-{d3}|{h80}
xata-key¦Xata¦XATA_API_KEY=xau_{a36}
turso-token¦Turso¦TURSO_AUTH_TOKEN={jwt}
pagerduty-api¦PagerDuty¦PAGERDUTY_API_KEY=u+{s18}
pagerduty-integration¦PagerDuty¦PD_ROUTING_KEY={h32}
opsgenie-key¦Opsgenie¦OPSGENIE_API_KEY={uuid}
datadog-keys¦Datadog¦DD_API_KEY={h32}¦DD_APP_KEY={h40}
newrelic-user-key¦New Relic¦NEW_RELIC_API_KEY=NRAK-{u27}
newrelic-insert-key¦New Relic¦NEW_RELIC_INSERT_KEY=NRII-{s32}
newrelic-license¦New Relic¦NEW_RELIC_LICENSE_KEY={h36}NRAL
sentry-auth-token¦Sentry¦SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOjE3{b150}
sentry-user-token¦Sentry¦SENTRY_AUTH_TOKEN=sntryu_{h64}
sentry-legacy-token¦Sentry¦SENTRY_AUTH_TOKEN={h64}
honeycomb-key¦Honeycomb¦HONEYCOMB_API_KEY=hcaik_01{l56}
honeycomb-classic¦Honeycomb¦HONEYCOMB_WRITEKEY={h32}
grafana-cloud-token¦Grafana Cloud¦GRAFANA_CLOUD_TOKEN=glc_eyJvIjoi{b100}
grafana-sa-token¦Grafana¦GRAFANA_SA_TOKEN=glsa_{a32}_{h8}
grafana-api-key¦Grafana¦GRAFANA_API_KEY=eyJrIjoi{b72}
splunk-hec¦Splunk¦SPLUNK_HEC_TOKEN={uuid}
splunk-session¦Splunk¦SPLUNK_TOKEN=eyJraWQiOiJzcGx1bmsuc2VjcmV0{b200}
logzio-token¦Logz.io¦LOGZIO_TOKEN={a32}
loggly-token¦Loggly¦LOGGLY_TOKEN={uuid}
papertrail-token¦Papertrail¦PAPERTRAIL_API_TOKEN={a20}
dynatrace-token¦Dynatrace¦DT_API_TOKEN=dt0c01.{u24}.{u64}
lightstep-token¦Lightstep¦LIGHTSTEP_ACCESS_TOKEN={b84}
rollbar-token¦Rollbar¦ROLLBAR_ACCESS_TOKEN={h32}
bugsnag-key¦Bugsnag¦BUGSNAG_AUTH_TOKEN={uuid}
raygun-key¦Raygun¦RAYGUN_PAT={a40}
airbrake-key¦Airbrake¦AIRBRAKE_PROJECT_KEY={h32}
logtail-token¦Better Stack¦LOGTAIL_SOURCE_TOKEN={a24}
axiom-token¦Axiom¦AXIOM_TOKEN=xaat-{uuid}
axiom-personal¦Axiom¦AXIOM_PERSONAL_TOKEN=xapt-{uuid}
checkly-key¦Checkly¦CHECKLY_API_KEY=cu_{h32}
statuspage-key¦Statuspage¦STATUSPAGE_API_KEY={uuid}
postman-api-key¦Postman¦POSTMAN_API_KEY=PMAK-{h24}-{h34}
snyk-token¦Snyk¦SNYK_TOKEN={uuid}
sonarqube-user¦SonarQube¦SONAR_TOKEN=squ_{h40}
sonarqube-project¦SonarQube¦SONAR_TOKEN=sqp_{h40}
sonarqube-global¦SonarQube¦SONAR_TOKEN=sqa_{h40}
sonarcloud-token¦SonarCloud¦SONAR_TOKEN={h40}
codecov-token¦Codecov¦CODECOV_TOKEN={uuid}
circleci-pat¦CircleCI¦CIRCLECI_TOKEN=CCIPAT_{a22}_{h40}
circleci-legacy¦CircleCI¦CIRCLE_TOKEN={h40}
travis-token¦Travis CI¦TRAVIS_TOKEN={w22}
buildkite-token¦Buildkite¦BUILDKITE_API_TOKEN=bkua_{h40}
buildkite-agent¦Buildkite¦BUILDKITE_AGENT_TOKEN={h50}
drone-token¦Drone CI¦DRONE_TOKEN={a32}
jenkins-api-token¦Jenkins¦JENKINS_USER={user}¦JENKINS_API_TOKEN=11{h32}
teamcity-token¦TeamCity¦TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{w36}.{w48}
bitrise-pat¦Bitrise¦BITRISE_TOKEN={w86}
codemagic-token¦Codemagic¦CM_API_TOKEN={w43}
appveyor-token¦AppVeyor¦APPVEYOR_TOKEN=v2.{l20}
semaphore-token¦Semaphore CI¦SEMAPHORE_API_TOKEN={a20}
harness-pat¦Harness¦HARNESS_TOKEN=pat.{w22}.{h24}.{a20}
octopus-key¦Octopus Deploy¦OCTOPUS_API_KEY=API-{u32}
argocd-token¦Argo CD¦ARGOCD_AUTH_TOKEN={jwt}
rancher-token¦Rancher¦RANCHER_TOKEN=token-{l5}:{l54}
portainer-token¦Portainer¦PORTAINER_API_KEY=ptr_{b43}=
k8s-sa-token¦Kubernetes¦K8S_SA_TOKEN={jwt}
k8s-bootstrap-token¦Kubernetes¦BOOTSTRAP_TOKEN={l6}.{l16}
kubeconfig-token¦Kubernetes¦KUBECONFIG_CONTENT={kubeconfig}
consul-acl¦Consul¦CONSUL_HTTP_TOKEN={uuid}
nomad-token¦Nomad¦NOMAD_TOKEN={uuid}
tailscale-auth-key¦Tailscale¦TS_AUTHKEY=tskey-auth-k{a11}CNTRL-{a33}
tailscale-api-key¦Tailscale¦TS_API_KEY=tskey-api-k{a11}CNTRL-{a33}
tailscale-oauth¦Tailscale¦TS_OAUTH_CLIENT_SECRET=tskey-client-k{a11}CNTRL-{a33}
ngrok-authtoken¦ngrok¦NGROK_AUTHTOKEN=2{a26}_{a21}
ngrok-api-key¦ngrok¦NGROK_API_KEY=2{a26}_{a21}
zerotier-token¦ZeroTier¦ZEROTIER_API_TOKEN={a32}
teleport-token¦Teleport¦TELEPORT_JOIN_TOKEN={h32}
docker-hub-pat¦Docker Hub¦DOCKERHUB_USERNAME={user}¦DOCKERHUB_TOKEN=dckr_pat_{w27}
docker-config-auth¦Docker¦~/.docker/config.json={dockercfg}
quay-robot¦Quay.io¦QUAY_ROBOT=acme+deployer¦QUAY_TOKEN={u64}
jfrog-api-key¦JFrog Artifactory¦ARTIFACTORY_API_KEY=AKCp8{a68}
jfrog-reference-token¦JFrog¦JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{b48}
jfrog-access-token¦JFrog¦JFROG_ACCESS_TOKEN=eyJ2ZXIiOiIyIiwidHlwIjoiSldUIiwiYWxnIjoiUlMyNTYi{b300}
nexus-password¦Sonatype Nexus¦NEXUS_USER=deployment¦NEXUS_PASSWORD={pw}
npm-token¦npm¦NPM_TOKEN=npm_{a36}
npm-legacy-token¦npm¦//registry.npmjs.org/:_authToken={uuid}
pypi-token¦PyPI¦PYPI_TOKEN=pypi-AgEIcHlwaS5vcmcC{w150}
testpypi-token¦TestPyPI¦TEST_PYPI_TOKEN=pypi-AgENdGVzdC5weXBpLm9yZw{w150}
rubygems-key¦RubyGems¦GEM_HOST_API_KEY=rubygems_{h48}
nuget-key¦NuGet¦NUGET_API_KEY=oy2{l43}
crates-token¦crates.io¦CARGO_REGISTRY_TOKEN=cio{a32}
packagist-token¦Packagist¦PACKAGIST_API_TOKEN={a20}
hexpm-key¦Hex.pm¦HEX_API_KEY={h32}
clojars-token¦Clojars¦CLOJARS_TOKEN=CLOJARS_{h60}
pubdev-token¦pub.dev¦PUB_TOKEN=ya29.{w150}
cloudsmith-key¦Cloudsmith¦CLOUDSMITH_API_KEY={h40}
gemfury-token¦Gemfury¦GEMFURY_TOKEN={a20}
harbor-robot¦Harbor¦HARBOR_ROBOT=robot$ci¦HARBOR_SECRET={a32}
gh-packages-npmrc¦GitHub Packages¦//npm.pkg.github.com/:_authToken=ghp_{a36}
huggingface-token¦Hugging Face¦HF_TOKEN=hf_{a34}
huggingface-org-token¦Hugging Face¦HF_API_TOKEN=api_org_{a34}
openai-project-key¦OpenAI¦OPENAI_API_KEY=sk-proj-{w156}
openai-legacy-key¦OpenAI¦OPENAI_API_KEY=sk-{a20}T3BlbkFJ{a20}
openai-svcacct-key¦OpenAI¦OPENAI_API_KEY=sk-svcacct-{w156}
openai-admin-key¦OpenAI¦OPENAI_ADMIN_KEY=sk-admin-{w156}
anthropic-api-key¦Anthropic¦ANTHROPIC_API_KEY=sk-ant-api03-{w93}AA
anthropic-admin-key¦Anthropic¦ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{w93}AA
cohere-key¦Cohere¦COHERE_API_KEY={a40}
mistral-key¦Mistral AI¦MISTRAL_API_KEY={a32}
groq-key¦Groq¦GROQ_API_KEY=gsk_{a52}
replicate-token¦Replicate¦REPLICATE_API_TOKEN=r8_{a37}
together-key¦Together AI¦TOGETHER_API_KEY=tgp_v1_{w43}
together-legacy¦Together AI¦TOGETHER_API_KEY={h64}
perplexity-key¦Perplexity¦PERPLEXITY_API_KEY=pplx-{a48}
deepseek-key¦DeepSeek¦DEEPSEEK_API_KEY=sk-{h32}
xai-key¦xAI¦XAI_API_KEY=xai-{a80}
fireworks-key¦Fireworks AI¦FIREWORKS_API_KEY=fw_{a24}
openrouter-key¦OpenRouter¦OPENROUTER_API_KEY=sk-or-v1-{h64}
elevenlabs-key¦ElevenLabs¦ELEVENLABS_API_KEY=sk_{h48}
assemblyai-key¦AssemblyAI¦ASSEMBLYAI_API_KEY={h32}
deepgram-key¦Deepgram¦DEEPGRAM_API_KEY={h40}
pinecone-key¦Pinecone¦PINECONE_API_KEY=pcsk_{a5}_{a60}
weaviate-key¦Weaviate¦WEAVIATE_API_KEY={a40}
qdrant-key¦Qdrant¦QDRANT_API_KEY={w80}
langsmith-pat¦LangSmith¦LANGSMITH_API_KEY=lsv2_pt_{h32}_{h10}
langsmith-sk¦LangSmith¦LANGCHAIN_API_KEY=lsv2_sk_{h32}_{h10}
wandb-key¦Weights & Biases¦WANDB_API_KEY={h40}
comet-key¦Comet ML¦COMET_API_KEY={a25}
stability-key¦Stability AI¦STABILITY_API_KEY=sk-{a48}
voyage-key¦Voyage AI¦VOYAGE_API_KEY=pa-{w43}
jina-key¦Jina AI¦JINA_API_KEY=jina_{h32}{w28}
tavily-key¦Tavily¦TAVILY_API_KEY=tvly-{a32}
serpapi-key¦SerpApi¦SERPAPI_API_KEY={h64}
exa-key¦Exa¦EXA_API_KEY={uuid}
firecrawl-key¦Firecrawl¦FIRECRAWL_API_KEY=fc-{h32}
browserbase-key¦Browserbase¦BROWSERBASE_API_KEY=bb_live_{w27}
e2b-key¦E2B¦E2B_API_KEY=e2b_{h40}
modal-token¦Modal¦MODAL_TOKEN_ID=ak-{a22}¦MODAL_TOKEN_SECRET=as-{a22}
anyscale-key¦Anyscale¦ANYSCALE_API_KEY=esecret_{l24}
runpod-key¦RunPod¦RUNPOD_API_KEY=rpa_{u40}
lambda-cloud-key¦Lambda Cloud¦LAMBDA_API_KEY=secret_{l20}_{h32}
cerebras-key¦Cerebras¦CEREBRAS_API_KEY=csk-{l48}
nvidia-nim-key¦NVIDIA NGC¦NGC_API_KEY=nvapi-{w64}
ai21-key¦AI21¦AI21_API_KEY={a32}
binance-keys¦Binance¦BINANCE_API_KEY={a64}¦BINANCE_API_SECRET={a64}
coinbase-cdp-key¦Coinbase Developer Platform¦CDP_API_KEY_NAME=organizations/{uuid}/apiKeys/{uuid}¦CDP_API_KEY_PRIVATE_KEY={pemec}
coinbase-legacy¦Coinbase¦COINBASE_API_KEY={a16}¦COINBASE_API_SECRET={a32}
kraken-keys¦Kraken¦KRAKEN_API_KEY={b56}¦KRAKEN_PRIVATE_KEY={b86}==
bitfinex-keys¦Bitfinex¦BFX_API_KEY={a43}¦BFX_API_SECRET={a43}
kucoin-keys¦KuCoin¦KUCOIN_KEY={h24}¦KUCOIN_SECRET={uuid}¦KUCOIN_PASSPHRASE={pw}
okx-keys¦OKX¦OKX_API_KEY={uuid}¦OKX_SECRET_KEY={H32}¦OKX_PASSPHRASE={pw}
bybit-keys¦Bybit¦BYBIT_API_KEY={a18}¦BYBIT_API_SECRET={a36}
gemini-exchange¦Gemini Exchange¦GEMINI_API_KEY=account-{a20}¦GEMINI_API_SECRET={a28}
bitstamp-keys¦Bitstamp¦BITSTAMP_KEY={a32}¦BITSTAMP_SECRET={a32}
gateio-keys¦Gate.io¦GATE_API_KEY={h32}¦GATE_API_SECRET={h64}
htx-keys¦HTX¦HTX_ACCESS_KEY={h8}-{h8}-{h8}-{h5}¦HTX_SECRET_KEY={h8}-{h8}-{h8}-{h5}
cryptocom-keys¦Crypto.com Exchange¦CDC_API_KEY={a22}¦CDC_API_SECRET={a22}
bitget-keys¦Bitget¦BITGET_API_KEY=bg_{h32}¦BITGET_SECRET={h64}¦BITGET_PASSPHRASE={pw}
alchemy-key¦Alchemy¦ALCHEMY_URL=https://eth-mainnet.g.alchemy.com/v2/{w32}
infura-secret¦Infura¦INFURA_PROJECT_ID={h32}¦INFURA_PROJECT_SECRET={h32}
etherscan-key¦Etherscan¦ETHERSCAN_API_KEY={u34}
quicknode-url¦QuickNode¦QUICKNODE_RPC=https://{c6}-{c6}-{c6}.quiknode.pro/{h40}/
moralis-key¦Moralis¦MORALIS_API_KEY={a64}
helius-key¦Helius¦HELIUS_RPC=https://mainnet.helius-rpc.com/?api-key={uuid}
pinata-jwt¦Pinata¦PINATA_JWT={jwt}
pinata-secret¦Pinata¦PINATA_API_KEY={h20}¦PINATA_SECRET_API_KEY={h64}
tenderly-key¦Tenderly¦TENDERLY_ACCESS_KEY={a32}
covalent-key¦Covalent¦COVALENT_API_KEY=cqt_{a36}
ethereum-private-key¦Ethereum wallet¦PRIVATE_KEY=0x{h64}
ethereum-keystore-pass¦Ethereum keystore¦KEYSTORE_PASSWORD={pw}
bitcoin-wif¦Bitcoin wallet¦BTC_WIF={wif}
bitcoin-xprv¦Bitcoin HD wallet¦XPRV={xprv}
solana-keypair¦Solana wallet¦SOLANA_PRIVATE_KEY={m88}
nostr-nsec¦Nostr¦NOSTR_NSEC=nsec1{e58}
rsa-private-key¦SSH / TLS¦server.key={pemrsa}
ec-private-key¦TLS¦tls.key={pemec}
pkcs8-private-key¦TLS¦private.pem={pempkcs}
dsa-private-key¦Legacy SSH¦id_dsa={pemdsa}
openssh-private-key¦OpenSSH¦id_ed25519={openssh}
pgp-private-key¦GnuPG¦private.asc={pgppriv}
encrypted-pem-with-pass¦TLS¦key.pem={pemenc}¦PEM_PASSPHRASE={pw}
putty-ppk¦PuTTY¦deploy.ppk={ppk}
jwk-private¦JSON Web Key¦JWKS_PRIVATE={jwk}
wireguard-private¦WireGuard¦PrivateKey={b42}{ch_AEIMQUYcgkosw048}=
age-secret-key¦age¦AGE_SECRET_KEY=AGE-SECRET-KEY-1{t58}
minisign-secret¦minisign¦minisign.key=untrusted comment: minisign encrypted secret key\nRWRTY0Iy{b150}
openvpn-static-key¦OpenVPN¦ta.key=-----BEGIN OpenVPN Static key V1-----\n{h32}\n{h32}\n{h32}\n{h32}\n{h32}\n{h32}\n{h32}\n{h32}\n-----END OpenVPN Static key V1-----
tor-onion-key¦Tor onion service¦hs_ed25519_secret_key=== ed25519v1-secret: type0 ==\n{b86}
postgres-url¦PostgreSQL¦DATABASE_URL=postgresql://{user}:{pw}@{host}:5432/{db}
mysql-url¦MySQL¦MYSQL_URL=mysql://{user}:{pw}@{host}:3306/{db}
mariadb-dsn¦MariaDB¦DB_DSN={user}:{pw}@tcp({host}:3306)/{db}?parseTime=true
mssql-conn¦SQL Server¦ConnectionStrings__Default=Server=tcp:{c8}.database.windows.net,1433;Initial Catalog={db};User ID={user};Password={pw};Encrypt=True;
oracle-jdbc¦Oracle DB¦JDBC_URL=jdbc:oracle:thin:{user}/{pw}@//{host}:1521/ORCLPDB1
redis-url¦Redis¦REDIS_URL=redis://default:{pw}@{host}:6379/0
rediss-url¦Redis (TLS)¦REDIS_URL=rediss://:{a32}@{c8}.cache.amazonaws.com:6380
amqp-url¦RabbitMQ¦AMQP_URL=amqps://{user}:{pw}@{c8}.rmq.cloudamqp.com/{c8}
kafka-sasl¦Confluent Kafka¦KAFKA_API_KEY={u16}¦KAFKA_API_SECRET={b64}
snowflake-creds¦Snowflake¦SNOWFLAKE_ACCOUNT={c6}-{c7}¦SNOWFLAKE_USER={user}¦SNOWFLAKE_PASSWORD={pw}
databricks-pat¦Databricks¦DATABRICKS_HOST=https://adb-{d16}.{d1}.azuredatabricks.net¦DATABRICKS_TOKEN=dapi{h32}
clickhouse-url¦ClickHouse¦CLICKHOUSE_URL=https://default:{pw}@{l10}.eu-central-1.aws.clickhouse.cloud:8443
cassandra-creds¦DataStax Astra¦ASTRA_DB_APPLICATION_TOKEN=AstraCS:{a24}:{h64}
neo4j-creds¦Neo4j¦NEO4J_URI=neo4j+s://{h8}.databases.neo4j.io¦NEO4J_PASSWORD={w43}
influxdb-token¦InfluxDB¦INFLUX_TOKEN={w86}==
couchbase-creds¦Couchbase¦COUCHBASE_CONN=couchbases://cb.{l12}.cloud.couchbase.com¦COUCHBASE_PASSWORD={pw}
cockroach-url¦CockroachDB¦DATABASE_URL=postgresql://{user}:{a22}@{c8}-{d4}.{d1}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full
firebird-dsn¦Firebird¦ISC_PASSWORD={pw}
ldap-bind¦LDAP¦LDAP_BIND_DN=cn=svc-ldap,ou=services,dc=acme,dc=corp¦LDAP_BIND_PASSWORD={pw}
smtp-creds¦SMTP¦SMTP_HOST=smtp.{domain}¦SMTP_USER=noreply@{domain}¦SMTP_PASS={pw}
smtp-url¦SMTP¦EMAIL_URL=smtp+tls://{user}:{pw}@smtp.{domain}:587
imap-creds¦IMAP¦IMAP_URL=imaps://{email}:{pw}@imap.{domain}:993
ftp-url¦FTP¦FTP_URL=ftp://{user}:{pw}@ftp.{domain}/uploads
sftp-creds¦SFTP¦SFTP_HOST=sftp.{domain}¦SFTP_USER={user}¦SFTP_PASSWORD={pw}
webdav-url¦WebDAV¦WEBDAV_URL=https://{user}:{pw}@cloud.{domain}/remote.php/dav/files/{user}/
basic-auth-url¦Internal API¦API_URL=https://{user}:{pw}@api.{domain}/v2
netrc-entry¦.netrc¦machine=api.{domain} login {user} password {pw}
pgpass-entry¦.pgpass¦~/.pgpass={host}:5432:{db}:{user}:{pw}
pypirc-password¦.pypirc¦[pypi] password=pypi-AgEIcHlwaS5vcmcC{w120}
snmp-community¦SNMP¦snmp-server community={a16} RW
radius-secret¦RADIUS¦radius shared secret={pw}
ipsec-psk¦IPsec VPN¦IPSEC_PSK={pw}
wpa-psk¦wpa_supplicant¦psk="{pw}"
vnc-password¦VNC¦VNC_PASSWORD={a8}
idrac-password¦iDRAC / iLO¦BMC_USER=root¦BMC_PASSWORD={pw}
cisco-enable-secret¦Cisco IOS¦enable secret 0={pw}
django-secret-key¦Django¦DJANGO_SECRET_KEY=django-insecure-{p50}
rails-secret-key-base¦Ruby on Rails¦SECRET_KEY_BASE={h128}
rails-master-key¦Ruby on Rails¦RAILS_MASTER_KEY={h32}
laravel-app-key¦Laravel¦APP_KEY=base64:{b43}=
flask-secret-key¦Flask¦FLASK_SECRET_KEY={h48}
nextauth-secret¦NextAuth.js¦NEXTAUTH_SECRET={b43}=
jwt-hs256-secret¦JWT signing¦JWT_SECRET={w64}
session-secret¦Express session¦SESSION_SECRET={a48}
symfony-app-secret¦Symfony¦APP_SECRET={h32}
phoenix-secret-key-base¦Phoenix¦SECRET_KEY_BASE={w64}
spring-encrypt-key¦Spring Cloud Config¦ENCRYPT_KEY={a40}
aspnet-machine-key¦ASP.NET¦machineKey validationKey={H128}¦decryptionKey={H64}
express-session-cookie¦Express session¦Cookie=connect.sid=s%3A{w32}.{w43}
php-session-cookie¦PHP session¦Cookie=PHPSESSID={l26}
django-session-cookie¦Django session¦Cookie=sessionid={l32}; csrftoken={a32}
rails-session-cookie¦Rails session¦Cookie=_app_session={w200}--{h40}
laravel-session-cookie¦Laravel session¦Cookie=laravel_session=eyJpdiI6{b180}
github-session-cookie¦GitHub web session¦Cookie=user_session={w48}; __Host-user_session_same_site={w48}
aspnet-auth-cookie¦ASP.NET forms auth¦Cookie=.ASPXAUTH={H320}
jsessionid-cookie¦Java servlet session¦Cookie=JSESSIONID={H32}.node{d1}
wordpress-auth-cookie¦WordPress¦Cookie=wordpress_logged_in_{h32}={user}%7C{d10}%7C{a43}%7C{h64}
bearer-jwt¦Internal API¦Authorization=Bearer {jwt}
oauth-client-secret¦OAuth 2.0 app¦OAUTH_CLIENT_ID={a24}¦OAUTH_CLIENT_SECRET={s48}
webhook-signing-secret¦Webhook receiver¦WEBHOOK_SIGNING_SECRET={h64}
hmac-shared-secret¦Partner API¦HMAC_SECRET={b43}=
totp-seed¦2FA authenticator¦TOTP_SECRET={t32}
api-key-generic-header¦Partner API¦X-API-Key={a40}
lob-key¦Lob¦LOB_API_KEY=live_{h35}
shippo-token¦Shippo¦SHIPPO_API_TOKEN=shippo_live_{h40}
easypost-key¦EasyPost¦EASYPOST_API_KEY=EZAK{h54}
shipengine-key¦ShipEngine¦SHIPENGINE_API_KEY={w43}
dhl-api-secret¦DHL API¦DHL_API_KEY={a32}¦DHL_API_SECRET={a16}
fedex-secret¦FedEx API¦FEDEX_CLIENT_ID=l7{h30}¦FEDEX_CLIENT_SECRET={h32}
ups-secret¦UPS API¦UPS_CLIENT_ID={a48}¦UPS_CLIENT_SECRET={a64}
yelp-key¦Yelp Fusion¦YELP_API_KEY={w128}
foursquare-key¦Foursquare¦FOURSQUARE_API_KEY=fsq3{w40}
unsplash-secret¦Unsplash¦UNSPLASH_ACCESS_KEY={w43}¦UNSPLASH_SECRET_KEY={w43}
giphy-key¦GIPHY¦GIPHY_API_KEY={a32}
adobe-client-secret¦Adobe Developer¦ADOBE_CLIENT_ID={h32}¦ADOBE_CLIENT_SECRET=p8e-{s32}
canva-secret¦Canva Connect¦CANVA_CLIENT_SECRET=cnvca{w48}
frameio-token¦Frame.io¦FRAMEIO_TOKEN=fio-u-{w64}
loom-key¦Loom¦LOOM_SDK_SECRET={pempkcs}
webex-token¦Webex¦WEBEX_ACCESS_TOKEN={a64}_{a4}_{uuid}
ringcentral-jwt¦RingCentral¦RC_CLIENT_SECRET={a43}¦RC_JWT={jwt}
aircall-token¦Aircall¦AIRCALL_API_ID={h32}¦AIRCALL_API_TOKEN={h32}
dialpad-key¦Dialpad¦DIALPAD_API_KEY={a64}
crisp-token¦Crisp¦CRISP_IDENTIFIER={uuid}¦CRISP_KEY={h64}
drift-token¦Drift¦DRIFT_ACCESS_TOKEN={a32}
hotjar-secret¦Hotjar¦HOTJAR_CLIENT_SECRET={a64}
logrocket-key¦LogRocket¦LOGROCKET_API_KEY={c6}:{c6}:{a20}
segment-access-token¦Segment Public API¦SEGMENT_TOKEN=sgp_{a64}
rudderstack-token¦RudderStack¦RUDDERSTACK_ACCESS_TOKEN={a27}
fivetran-keys¦Fivetran¦FIVETRAN_API_KEY={a16}¦FIVETRAN_API_SECRET={a32}
airbyte-token¦Airbyte Cloud¦AIRBYTE_API_KEY={jwt}
dbt-cloud-token¦dbt Cloud¦DBT_CLOUD_API_TOKEN=dbtc_{w40}
prefect-key¦Prefect Cloud¦PREFECT_API_KEY=pnu_{a36}
dagster-token¦Dagster+¦DAGSTER_CLOUD_API_TOKEN=user:{h32}
astronomer-token¦Astronomer¦ASTRO_API_TOKEN={jwt}
hex-token¦Hex¦HEX_API_TOKEN={h64}
mode-token¦Mode Analytics¦MODE_TOKEN={h12}¦MODE_PASSWORD={h32}
metabase-key¦Metabase¦MB_API_KEY=mb_{b43}=
retool-token¦Retool¦RETOOL_API_TOKEN=retool_{a40}
looker-secret¦Looker¦LOOKERSDK_CLIENT_ID={a20}¦LOOKERSDK_CLIENT_SECRET={a24}
tableau-pat¦Tableau¦TABLEAU_PAT_NAME=ci-bot¦TABLEAU_PAT_SECRET={b22}==:{a32}
powerbi-secret¦Power BI¦POWERBI_CLIENT_SECRET={a3}8Q~{s31}
gusto-token¦Gusto¦GUSTO_ACCESS_TOKEN={w43}
bamboohr-key¦BambooHR¦BAMBOOHR_API_KEY={h40}
workday-secret¦Workday¦WORKDAY_CLIENT_SECRET={l50}
personio-secret¦Personio¦PERSONIO_CLIENT_ID=papi-{uuid}¦PERSONIO_CLIENT_SECRET=papi-{a48}
deel-token¦Deel¦DEEL_API_TOKEN={w86}
quickbooks-secret¦QuickBooks¦QBO_CLIENT_ID=AB{a48}¦QBO_CLIENT_SECRET={a40}
xero-secret¦Xero¦XERO_CLIENT_ID={H32}¦XERO_CLIENT_SECRET={w48}
freshbooks-token¦FreshBooks¦FRESHBOOKS_TOKEN={a64}
sage-secret¦Sage Business Cloud¦SAGE_CLIENT_SECRET={w43}
expensify-creds¦Expensify¦EXPENSIFY_PARTNER_USER_ID=aa_{c8}_{domain}¦EXPENSIFY_PARTNER_SECRET={h40}
brex-token¦Brex¦BREX_TOKEN=bxt_{a40}
ramp-secret¦Ramp¦RAMP_CLIENT_SECRET=sk_ramp_{a48}
mercury-token¦Mercury¦MERCURY_API_TOKEN=secret-token:mercury_production_rma_{a40}_yrucrem
modern-treasury¦Modern Treasury¦MT_API_KEY=live-{a64}
column-key¦Column¦COLUMN_API_KEY=live_{a32}
dwolla-secret¦Dwolla¦DWOLLA_KEY={a50}¦DWOLLA_SECRET={a50}
marqeta-token¦Marqeta¦MARQETA_APP_TOKEN={uuid}¦MARQETA_ADMIN_TOKEN={uuid}
sumup-secret¦SumUp¦SUMUP_API_KEY=sup_sk_{a32}
twilio-sendgrid-subuser¦SendGrid subuser¦SMTP_USERNAME=apikey¦SMTP_PASSWORD=SG.{w22}.{w43}
postgres-password¦PostgreSQL¦POSTGRES_PASSWORD={pw}
mysql-root-password¦MySQL¦MYSQL_ROOT_PASSWORD={pw}
grafana-admin-password¦Grafana¦GF_SECURITY_ADMIN_PASSWORD={pw}
jenkins-admin-password¦Jenkins¦initialAdminPassword={h32}
rabbitmq-erlang-cookie¦RabbitMQ¦RABBITMQ_ERLANG_COOKIE={u20}
keycloak-admin-password¦Keycloak¦KEYCLOAK_ADMIN_PASSWORD={pw}
pihole-password¦Pi-hole¦WEBPASSWORD={pw}
homeassistant-token¦Home Assistant¦HA_LONG_LIVED_TOKEN={jwt}
synology-password¦Synology DSM¦DSM_ADMIN_PASSWORD={pw}
unifi-password¦UniFi controller¦UNIFI_PASSWORD={pw}
plex-token¦Plex¦X-Plex-Token={s20}
jellyfin-key¦Jellyfin¦JELLYFIN_API_KEY={h32}
nextcloud-app-password¦Nextcloud¦NEXTCLOUD_APP_PASSWORD={a5}-{a5}-{a5}-{a5}-{a5}
gitea-token¦Gitea¦GITEA_TOKEN={h40}
sourcehut-token¦SourceHut¦SRHT_TOKEN={w120}
codeberg-token¦Codeberg¦CODEBERG_TOKEN={h40}
readthedocs-token¦Read the Docs¦RTD_TOKEN={h40}
vercel-blob-token¦Vercel Blob¦BLOB_READ_WRITE_TOKEN=vercel_blob_rw_{a16}_{a30}
vercel-kv-token¦Vercel KV¦KV_REST_API_TOKEN=A{s60}=
netlify-build-hook¦Netlify build hook¦BUILD_HOOK=https://api.netlify.com/build_hooks/{h24}
vercel-deploy-hook¦Vercel deploy hook¦DEPLOY_HOOK=https://api.vercel.com/v1/integrations/deploy/prj_{a28}/{a10}
zapier-webhook¦Zapier¦ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{d8}/{l7}/
make-webhook¦Make.com¦MAKE_WEBHOOK=https://hook.eu1.make.com/{l32}
ifttt-key¦IFTTT¦IFTTT_WEBHOOK=https://maker.ifttt.com/trigger/door_open/with/key/{s43}
n8n-api-key¦n8n¦N8N_API_KEY={jwt}
pipedream-key¦Pipedream¦PIPEDREAM_API_KEY={h32}
""".strip()


def parse_vendor():
    out = []
    for line in VENDOR_SPEC.split('\n'):
        parts = line.split('¦')
        kind, svc = parts[0], parts[1]
        fields = []
        for p in parts[2:]:
            k, v = p.split('=', 1)
            fields.append((k, v.replace('\\n', '\n')))
        out.append((kind, svc, fields))
    return out


VENDORS = parse_vendor()


def make_vendor(spec=None):
    kind, svc, fields = spec or ch(VENDORS)
    vals = []
    for k, tpl in fields:
        if '{ch_AEIMQUYcgkosw048}' in tpl:
            tpl = tpl.replace('{ch_AEIMQUYcgkosw048}', ch('AEIMQUYcgkosw048'))
        vals.append((k, fill(tpl)))
    return kind, svc, vals


# ---------------------------------------------------------------- languages
LANG_SPEC = r"""
en|English|Note|My {svc} password is {v}|PIN for my debit card: {v}|Door code for the building: {v}|Wifi password at home: {v}|Alarm code: {v}|Card {v}, exp {exp}, CVV {cvv}|Security question (first pet): {v}|The verification code I just got is {v}|Dentist appointment on {date} at {time}|{name}'s birthday is on {date}|{name}'s phone number: {phone}|Changed my {svc} password today, the new one is in the password manager.|The new PIN has to be six digits and can't repeat digits.|Shopping: milk, bread, apples, coffee|API key for {svc}:
de|German|Notiz|Mein {svc}-Passwort ist {v}|PIN meiner EC-Karte: {v}|Türcode fürs Haus: {v}|WLAN-Passwort zu Hause: {v}|Code der Alarmanlage: {v}|Karte {v}, gültig bis {exp}, Prüfnummer {cvv}|Sicherheitsfrage (erstes Haustier): {v}|Der Bestätigungscode aus der SMS lautet {v}|Zahnarzttermin am {date} um {time}|{name} hat am {date} Geburtstag|Telefonnummer von {name}: {phone}|Habe heute mein {svc}-Passwort geändert, das neue steht im Passwortmanager.|Die neue PIN muss sechsstellig sein und darf keine Ziffer wiederholen.|Einkaufen: Milch, Brot, Äpfel, Kaffee|API-Schlüssel für {svc}:
fr|French|Note|Mon mot de passe {svc} est {v}|Code PIN de ma carte bancaire : {v}|Digicode de l'immeuble : {v}|Mot de passe du wifi à la maison : {v}|Code de l'alarme : {v}|Carte {v}, expire {exp}, cryptogramme {cvv}|Question secrète (premier animal) : {v}|Le code de vérification reçu par SMS est {v}|Rendez-vous chez le dentiste le {date} à {time}|L'anniversaire de {name} est le {date}|Numéro de téléphone de {name} : {phone}|J'ai changé mon mot de passe {svc} aujourd'hui, le nouveau est dans le gestionnaire.|Le nouveau code PIN doit comporter six chiffres.|Courses : lait, pain, pommes, café|Clé API pour {svc} :
es|Spanish|Nota|Mi contraseña de {svc} es {v}|PIN de mi tarjeta de débito: {v}|Código del portal: {v}|Contraseña del wifi de casa: {v}|Código de la alarma: {v}|Tarjeta {v}, caduca {exp}, CVV {cvv}|Pregunta de seguridad (primera mascota): {v}|El código de verificación que me llegó es {v}|Cita con el dentista el {date} a las {time}|El cumpleaños de {name} es el {date}|Teléfono de {name}: {phone}|Hoy cambié la contraseña de {svc}, la nueva está en el gestor de contraseñas.|El nuevo PIN debe tener seis dígitos.|Compra: leche, pan, manzanas, café|Clave API de {svc}:
it|Italian|Nota|La mia password di {svc} è {v}|PIN del bancomat: {v}|Codice del portone: {v}|Password del wifi di casa: {v}|Codice dell'allarme: {v}|Carta {v}, scadenza {exp}, CVV {cvv}|Domanda di sicurezza (primo animale): {v}|Il codice di verifica ricevuto via SMS è {v}|Appuntamento dal dentista il {date} alle {time}|Il compleanno di {name} è il {date}|Numero di telefono di {name}: {phone}|Oggi ho cambiato la password di {svc}, la nuova è nel password manager.|Il nuovo PIN deve avere sei cifre.|Spesa: latte, pane, mele, caffè|Chiave API per {svc}:
pt|Portuguese|Nota|A minha palavra-passe do {svc} é {v}|PIN do cartão multibanco: {v}|Código da porta do prédio: {v}|Senha do wifi de casa: {v}|Código do alarme: {v}|Cartão {v}, validade {exp}, CVV {cvv}|Pergunta de segurança (primeiro animal): {v}|O código de verificação que recebi é {v}|Consulta no dentista em {date} às {time}|O aniversário de {name} é em {date}|Telefone de {name}: {phone}|Mudei hoje a senha do {svc}, a nova está no gestor de senhas.|O novo PIN tem de ter seis dígitos.|Compras: leite, pão, maçãs, café|Chave de API do {svc}:
nl|Dutch|Notitie|Mijn {svc}-wachtwoord is {v}|Pincode van mijn bankpas: {v}|Deurcode van het gebouw: {v}|Wifi-wachtwoord thuis: {v}|Code van het alarm: {v}|Kaart {v}, geldig tot {exp}, CVC {cvv}|Beveiligingsvraag (eerste huisdier): {v}|De verificatiecode uit de sms is {v}|Tandarts op {date} om {time}|{name} is jarig op {date}|Telefoonnummer van {name}: {phone}|Vandaag mijn {svc}-wachtwoord gewijzigd, het nieuwe staat in de wachtwoordmanager.|De nieuwe pincode moet zes cijfers hebben.|Boodschappen: melk, brood, appels, koffie|API-sleutel voor {svc}:
sv|Swedish|Anteckning|Mitt lösenord till {svc} är {v}|PIN-kod till bankkortet: {v}|Portkod: {v}|Wifi-lösenord hemma: {v}|Larmkod: {v}|Kort {v}, giltigt till {exp}, CVC {cvv}|Säkerhetsfråga (första husdjuret): {v}|Verifieringskoden från sms:et är {v}|Tandläkartid {date} kl. {time}|{name} fyller år {date}|{name}s telefonnummer: {phone}|Bytte lösenord till {svc} idag, det nya ligger i lösenordshanteraren.|Den nya PIN-koden måste ha sex siffror.|Handla: mjölk, bröd, äpplen, kaffe|API-nyckel för {svc}:
nb|Norwegian|Notat|Passordet mitt til {svc} er {v}|PIN-koden til bankkortet: {v}|Dørkode til oppgangen: {v}|Wifi-passord hjemme: {v}|Alarmkode: {v}|Kort {v}, utløper {exp}, CVC {cvv}|Sikkerhetsspørsmål (første kjæledyr): {v}|Bekreftelseskoden fra SMS-en er {v}|Tannlegetime {date} kl. {time}|{name} har bursdag {date}|Telefonnummeret til {name}: {phone}|Byttet passord til {svc} i dag, det nye ligger i passordbehandleren.|Den nye PIN-koden må ha seks sifre.|Handleliste: melk, brød, epler, kaffe|API-nøkkel for {svc}:
da|Danish|Note|Min adgangskode til {svc} er {v}|PIN-kode til dankortet: {v}|Dørkode til opgangen: {v}|Wifi-kode derhjemme: {v}|Alarmkode: {v}|Kort {v}, udløber {exp}, kontrolcifre {cvv}|Sikkerhedsspørgsmål (første kæledyr): {v}|Bekræftelseskoden fra sms'en er {v}|Tandlæge den {date} kl. {time}|{name} har fødselsdag den {date}|{name}s telefonnummer: {phone}|Skiftede adgangskode til {svc} i dag, den nye ligger i adgangskodeadministratoren.|Den nye PIN-kode skal have seks cifre.|Indkøb: mælk, brød, æbler, kaffe|API-nøgle til {svc}:
fi|Finnish|Muistiinpano|{svc}-salasanani on {v}|Pankkikortin PIN-koodi: {v}|Rappukäytävän ovikoodi: {v}|Kodin wifi-salasana: {v}|Hälytyskoodi: {v}|Kortti {v}, voimassa {exp}, CVV {cvv}|Turvakysymys (ensimmäinen lemmikki): {v}|Tekstiviestinä tullut vahvistuskoodi on {v}|Hammaslääkäri {date} klo {time}|{name} täyttää vuosia {date}|Puhelinnumero ({name}): {phone}|Vaihdoin tänään {svc}-salasanan, uusi on salasanamanagerissa.|Uuden PIN-koodin pitää olla kuusinumeroinen.|Kauppalista: maito, leipä, omenat, kahvi|API-avain palveluun {svc}:
pl|Polish|Notatka|Moje hasło do {svc} to {v}|PIN do karty debetowej: {v}|Kod do domofonu: {v}|Hasło do wifi w domu: {v}|Kod alarmu: {v}|Karta {v}, ważna do {exp}, CVV {cvv}|Pytanie bezpieczeństwa (pierwsze zwierzę): {v}|Kod weryfikacyjny z SMS-a to {v}|Wizyta u dentysty {date} o {time}|{name} ma urodziny {date}|Numer telefonu ({name}): {phone}|Zmieniłem dziś hasło do {svc}, nowe jest w menedżerze haseł.|Nowy PIN musi mieć sześć cyfr.|Zakupy: mleko, chleb, jabłka, kawa|Klucz API do {svc}:
cs|Czech|Poznámka|Moje heslo do {svc} je {v}|PIN k platební kartě: {v}|Kód od vchodu: {v}|Heslo k wifi doma: {v}|Kód od alarmu: {v}|Karta {v}, platnost {exp}, CVV {cvv}|Bezpečnostní otázka (první mazlíček): {v}|Ověřovací kód z SMS je {v}|Zubař {date} v {time}|{name} má narozeniny {date}|Telefon ({name}): {phone}|Dnes jsem změnil heslo do {svc}, nové je ve správci hesel.|Nový PIN musí mít šest číslic.|Nákup: mléko, chleba, jablka, káva|API klíč pro {svc}:
hu|Hungarian|Jegyzet|A {svc} jelszavam: {v}|A bankkártyám PIN-kódja: {v}|A kapukód: {v}|Otthoni wifi jelszó: {v}|Riasztó kódja: {v}|Kártya {v}, lejárat {exp}, CVC {cvv}|Biztonsági kérdés (első háziállat): {v}|Az SMS-ben kapott ellenőrző kód: {v}|Fogorvos {date}, {time}|{name} születésnapja: {date}|{name} telefonszáma: {phone}|Ma megváltoztattam a {svc} jelszavamat, az új a jelszókezelőben van.|Az új PIN-kódnak hat számjegyűnek kell lennie.|Bevásárlás: tej, kenyér, alma, kávé|API-kulcs ({svc}):
ro|Romanian|Notă|Parola mea de la {svc} este {v}|PIN-ul cardului de debit: {v}|Codul de la interfon: {v}|Parola de wifi de acasă: {v}|Codul alarmei: {v}|Card {v}, expiră {exp}, CVV {cvv}|Întrebare de securitate (primul animal): {v}|Codul de verificare primit prin SMS este {v}|Programare la dentist pe {date} la {time}|Ziua lui {name} este pe {date}|Telefonul lui {name}: {phone}|Azi am schimbat parola de la {svc}, cea nouă e în managerul de parole.|Noul PIN trebuie să aibă șase cifre.|Cumpărături: lapte, pâine, mere, cafea|Cheie API pentru {svc}:
tr|Turkish|Not|{svc} şifrem: {v}|Banka kartımın şifresi: {v}|Apartman kapı şifresi: {v}|Evdeki wifi şifresi: {v}|Alarm kodu: {v}|Kart {v}, son kullanma {exp}, CVV {cvv}|Güvenlik sorusu (ilk evcil hayvan): {v}|SMS ile gelen doğrulama kodu {v}|{date} saat {time} diş hekimi randevusu|{name} doğum günü: {date}|{name} telefon numarası: {phone}|Bugün {svc} şifremi değiştirdim, yenisi şifre yöneticisinde.|Yeni PIN altı haneli olmalı.|Alışveriş: süt, ekmek, elma, kahve|{svc} için API anahtarı:
el|Greek|Σημείωση|Ο κωδικός μου στο {svc} είναι {v}|PIN της χρεωστικής κάρτας: {v}|Κωδικός της εισόδου: {v}|Κωδικός του wifi στο σπίτι: {v}|Κωδικός συναγερμού: {v}|Κάρτα {v}, λήξη {exp}, CVV {cvv}|Ερώτηση ασφαλείας (πρώτο κατοικίδιο): {v}|Ο κωδικός επαλήθευσης από το SMS είναι {v}|Οδοντίατρος στις {date}, ώρα {time}|Γενέθλια ({name}): {date}|Τηλέφωνο ({name}): {phone}|Άλλαξα σήμερα τον κωδικό του {svc}, ο νέος είναι στον διαχειριστή κωδικών.|Το νέο PIN πρέπει να έχει έξι ψηφία.|Ψώνια: γάλα, ψωμί, μήλα, καφές|Κλειδί API για {svc}:
ru|Russian|Заметка|Мой пароль от {svc}: {v}|ПИН-код банковской карты: {v}|Код домофона: {v}|Пароль от домашнего wifi: {v}|Код сигнализации: {v}|Карта {v}, срок {exp}, CVV {cvv}|Контрольный вопрос (первый питомец): {v}|Код подтверждения из СМС: {v}|Запись к стоматологу {date} в {time}|День рождения ({name}): {date}|Телефон ({name}): {phone}|Сегодня сменил пароль от {svc}, новый лежит в менеджере паролей.|Новый ПИН должен состоять из шести цифр.|Купить: молоко, хлеб, яблоки, кофе|API-ключ для {svc}:
uk|Ukrainian|Нотатка|Мій пароль від {svc}: {v}|ПІН-код банківської картки: {v}|Код домофона: {v}|Пароль від домашнього wifi: {v}|Код сигналізації: {v}|Картка {v}, діє до {exp}, CVV {cvv}|Контрольне питання (перший улюбленець): {v}|Код підтвердження з СМС: {v}|Запис до стоматолога {date} о {time}|День народження ({name}): {date}|Телефон ({name}): {phone}|Сьогодні змінив пароль від {svc}, новий у менеджері паролів.|Новий ПІН має складатися з шести цифр.|Купити: молоко, хліб, яблука, каву|API-ключ для {svc}:
bg|Bulgarian|Бележка|Паролата ми за {svc} е {v}|ПИН на дебитната карта: {v}|Код на входа: {v}|Паролата за wifi вкъщи: {v}|Код на алармата: {v}|Карта {v}, валидна до {exp}, CVV {cvv}|Таен въпрос (първи домашен любимец): {v}|Кодът за потвърждение от SMS-а е {v}|Зъболекар на {date} в {time}|Рожден ден ({name}): {date}|Телефон ({name}): {phone}|Днес смених паролата за {svc}, новата е в мениджъра на пароли.|Новият ПИН трябва да е шестцифрен.|Пазар: мляко, хляб, ябълки, кафе|API ключ за {svc}:
hr|Croatian|Bilješka|Moja lozinka za {svc} je {v}|PIN debitne kartice: {v}|Šifra za ulaz u zgradu: {v}|Lozinka za kućni wifi: {v}|Šifra alarma: {v}|Kartica {v}, vrijedi do {exp}, CVV {cvv}|Sigurnosno pitanje (prvi ljubimac): {v}|Kod za potvrdu iz SMS-a je {v}|Zubar {date} u {time}|{name} ima rođendan {date}|Broj telefona ({name}): {phone}|Danas sam promijenio lozinku za {svc}, nova je u upravitelju lozinki.|Novi PIN mora imati šest znamenki.|Kupiti: mlijeko, kruh, jabuke, kavu|API ključ za {svc}:
lt|Lithuanian|Pastaba|Mano {svc} slaptažodis: {v}|Banko kortelės PIN kodas: {v}|Laiptinės durų kodas: {v}|Namų wifi slaptažodis: {v}|Signalizacijos kodas: {v}|Kortelė {v}, galioja iki {exp}, CVV {cvv}|Saugumo klausimas (pirmas augintinis): {v}|Patvirtinimo kodas iš SMS: {v}|Odontologas {date} {time}|Gimtadienis ({name}): {date}|Telefonas ({name}): {phone}|Šiandien pakeičiau {svc} slaptažodį, naujas yra slaptažodžių tvarkyklėje.|Naujas PIN turi būti šešių skaitmenų.|Pirkiniai: pienas, duona, obuoliai, kava|{svc} API raktas:
ar|Arabic|ملاحظة|كلمة مرور {svc} الخاصة بي هي {v}|الرقم السري لبطاقة البنك: {v}|رمز باب العمارة: {v}|كلمة سر الواي فاي في البيت: {v}|رمز جهاز الإنذار: {v}|البطاقة {v}، تنتهي {exp}، CVV {cvv}|سؤال الأمان (أول حيوان أليف): {v}|رمز التحقق الذي وصلني في الرسالة هو {v}|موعد طبيب الأسنان يوم {date} الساعة {time}|عيد ميلاد {name} في {date}|رقم هاتف {name}: {phone}|غيرت اليوم كلمة مرور {svc}، الجديدة محفوظة في مدير كلمات المرور.|يجب أن يتكون الرقم السري الجديد من ستة أرقام.|مشتريات: حليب، خبز، تفاح، قهوة|مفتاح API لخدمة {svc}:
he|Hebrew|הערה|הסיסמה שלי ל-{svc} היא {v}|הקוד הסודי של כרטיס החיוב: {v}|קוד הכניסה לבניין: {v}|סיסמת הוויפי בבית: {v}|קוד האזעקה: {v}|כרטיס {v}, תוקף {exp}, CVV {cvv}|שאלת אבטחה (חיית המחמד הראשונה): {v}|קוד האימות שקיבלתי ב-SMS הוא {v}|תור לרופא שיניים ב-{date} בשעה {time}|יום ההולדת של {name} ב-{date}|הטלפון של {name}: {phone}|החלפתי היום את הסיסמה ל-{svc}, החדשה נמצאת במנהל הסיסמאות.|הקוד הסודי החדש חייב להיות בן שש ספרות.|קניות: חלב, לחם, תפוחים, קפה|מפתח API עבור {svc}:
fa|Persian|یادداشت|رمز عبور {svc} من {v} است|رمز کارت بانکی: {v}|کد درِ ساختمان: {v}|رمز وای‌فای خانه: {v}|کد دزدگیر: {v}|کارت {v}، انقضا {exp}، CVV2 {cvv}|سؤال امنیتی (اولین حیوان خانگی): {v}|کد تأیید پیامک شده {v} است|نوبت دندانپزشکی {date} ساعت {time}|تولد {name} در {date} است|شماره تلفن {name}: {phone}|امروز رمز {svc} را عوض کردم، رمز جدید در مدیر رمز عبور است.|رمز جدید باید شش رقمی باشد.|خرید: شیر، نان، سیب، قهوه|کلید API برای {svc}:
hi|Hindi|नोट|मेरा {svc} पासवर्ड {v} है|डेबिट कार्ड का पिन: {v}|बिल्डिंग के दरवाज़े का कोड: {v}|घर के वाईफ़ाई का पासवर्ड: {v}|अलार्म का कोड: {v}|कार्ड {v}, समाप्ति {exp}, CVV {cvv}|सुरक्षा प्रश्न (पहला पालतू जानवर): {v}|SMS से आया वेरिफ़िकेशन कोड {v} है|डेंटिस्ट अपॉइंटमेंट {date} को {time} बजे|{name} का जन्मदिन {date} को है|{name} का फ़ोन नंबर: {phone}|आज {svc} का पासवर्ड बदला, नया पासवर्ड मैनेजर में है।|नया पिन छह अंकों का होना चाहिए।|ख़रीदारी: दूध, ब्रेड, सेब, कॉफ़ी|{svc} के लिए API कुंजी:
zh|Chinese|备忘|我的{svc}密码是{v}|银行卡密码：{v}|楼下大门密码：{v}|家里的wifi密码：{v}|报警器密码：{v}|卡号{v}，有效期{exp}，CVV {cvv}|安全问题（第一只宠物）：{v}|短信验证码是{v}|{date} {time} 看牙医|{name}的生日是{date}|{name}的电话：{phone}|今天改了{svc}的密码，新密码在密码管理器里。|新的支付密码必须是六位数字。|购物：牛奶、面包、苹果、咖啡|{svc}的API密钥：
ja|Japanese|メモ|{svc}のパスワードは{v}|キャッシュカードの暗証番号：{v}|マンションのオートロック番号：{v}|家のWi-Fiパスワード：{v}|警報装置の解除コード：{v}|カード番号{v}、有効期限{exp}、セキュリティコード{cvv}|秘密の質問（最初のペット）：{v}|SMSで届いた認証コードは{v}|{date} {time} 歯医者の予約|{name}の誕生日は{date}|{name}の電話番号：{phone}|今日{svc}のパスワードを変更した。新しいのはパスワードマネージャーに保存済み。|新しい暗証番号は6桁にすること。|買い物：牛乳、パン、りんご、コーヒー|{svc}のAPIキー：
ko|Korean|메모|내 {svc} 비밀번호는 {v}|체크카드 비밀번호: {v}|공동현관 비밀번호: {v}|집 와이파이 비밀번호: {v}|경보기 해제 코드: {v}|카드 {v}, 유효기간 {exp}, CVC {cvv}|보안 질문 (첫 반려동물): {v}|문자로 받은 인증번호는 {v}|{date} {time} 치과 예약|{name} 생일은 {date}|{name} 전화번호: {phone}|오늘 {svc} 비밀번호 바꿨음, 새 비밀번호는 비밀번호 관리자에 있음.|새 PIN은 6자리여야 함.|장보기: 우유, 빵, 사과, 커피|{svc} API 키:
vi|Vietnamese|Ghi chú|Mật khẩu {svc} của tôi là {v}|Mã PIN thẻ ngân hàng: {v}|Mã cửa tòa nhà: {v}|Mật khẩu wifi ở nhà: {v}|Mã báo động: {v}|Thẻ {v}, hết hạn {exp}, CVV {cvv}|Câu hỏi bảo mật (thú cưng đầu tiên): {v}|Mã xác minh nhận qua SMS là {v}|Hẹn nha sĩ ngày {date} lúc {time}|Sinh nhật của {name} là {date}|Số điện thoại của {name}: {phone}|Hôm nay đã đổi mật khẩu {svc}, mật khẩu mới nằm trong trình quản lý mật khẩu.|Mã PIN mới phải có sáu chữ số.|Đi chợ: sữa, bánh mì, táo, cà phê|Khóa API cho {svc}:
th|Thai|บันทึก|รหัสผ่าน {svc} ของฉันคือ {v}|รหัส PIN บัตรเดบิต: {v}|รหัสประตูตึก: {v}|รหัสไวไฟที่บ้าน: {v}|รหัสสัญญาณกันขโมย: {v}|บัตร {v} หมดอายุ {exp} CVV {cvv}|คำถามความปลอดภัย (สัตว์เลี้ยงตัวแรก): {v}|รหัสยืนยันที่ได้ทาง SMS คือ {v}|นัดหมอฟันวันที่ {date} เวลา {time}|วันเกิดของ {name} คือ {date}|เบอร์โทรของ {name}: {phone}|วันนี้เปลี่ยนรหัสผ่าน {svc} แล้ว รหัสใหม่อยู่ในโปรแกรมจัดการรหัสผ่าน|PIN ใหม่ต้องมีหกหลัก|ซื้อของ: นม ขนมปัง แอปเปิล กาแฟ|คีย์ API สำหรับ {svc}:
id|Indonesian|Catatan|Kata sandi {svc} saya {v}|PIN kartu ATM: {v}|Kode pintu gedung: {v}|Password wifi rumah: {v}|Kode alarm: {v}|Kartu {v}, berlaku s/d {exp}, CVV {cvv}|Pertanyaan keamanan (hewan peliharaan pertama): {v}|Kode verifikasi dari SMS adalah {v}|Janji dokter gigi tanggal {date} jam {time}|Ulang tahun {name} tanggal {date}|Nomor HP {name}: {phone}|Hari ini ganti kata sandi {svc}, yang baru ada di pengelola kata sandi.|PIN baru harus enam digit.|Belanja: susu, roti, apel, kopi|Kunci API untuk {svc}:
tl|Tagalog|Tala|Ang password ko sa {svc} ay {v}|PIN ng ATM card ko: {v}|Code ng pinto ng building: {v}|Password ng wifi sa bahay: {v}|Code ng alarm: {v}|Card {v}, expiry {exp}, CVV {cvv}|Security question (unang alaga): {v}|Ang verification code na natanggap ko sa text ay {v}|Appointment sa dentista sa {date}, {time}|Ang birthday ni {name} ay sa {date}|Numero ni {name}: {phone}|Pinalitan ko ngayon ang password sa {svc}, nasa password manager ang bago.|Dapat anim na digit ang bagong PIN.|Bibilhin: gatas, tinapay, mansanas, kape|API key para sa {svc}:
sw|Swahili|Kumbukumbu|Nenosiri langu la {svc} ni {v}|PIN ya kadi ya benki: {v}|Namba ya mlango wa jengo: {v}|Nenosiri la wifi nyumbani: {v}|Namba ya kengele: {v}|Kadi {v}, inaisha {exp}, CVV {cvv}|Swali la usalama (mnyama wa kwanza): {v}|Msimbo wa uthibitisho kutoka SMS ni {v}|Miadi ya daktari wa meno tarehe {date} saa {time}|Siku ya kuzaliwa ya {name} ni {date}|Namba ya simu ya {name}: {phone}|Leo nimebadilisha nenosiri la {svc}, jipya liko kwenye kidhibiti cha manenosiri.|PIN mpya lazima iwe na tarakimu sita.|Manunuzi: maziwa, mkate, tufaha, kahawa|Ufunguo wa API wa {svc}:
ca|Catalan|Nota|La meva contrasenya de {svc} és {v}|PIN de la targeta: {v}|Codi de la porta de l'edifici: {v}|Contrasenya del wifi de casa: {v}|Codi de l'alarma: {v}|Targeta {v}, caduca {exp}, CVV {cvv}|Pregunta de seguretat (primera mascota): {v}|El codi de verificació de l'SMS és {v}|Dentista el {date} a les {time}|L'aniversari de {name} és el {date}|Telèfon de {name}: {phone}|Avui he canviat la contrasenya de {svc}, la nova és al gestor de contrasenyes.|El nou PIN ha de tenir sis xifres.|Compra: llet, pa, pomes, cafè|Clau API de {svc}:
sk|Slovak|Poznámka|Moje heslo do {svc} je {v}|PIN k platobnej karte: {v}|Kód od vchodu: {v}|Heslo na wifi doma: {v}|Kód od alarmu: {v}|Karta {v}, platnosť {exp}, CVV {cvv}|Bezpečnostná otázka (prvé zviera): {v}|Overovací kód z SMS je {v}|Zubár {date} o {time}|{name} má narodeniny {date}|Telefón ({name}): {phone}|Dnes som zmenil heslo do {svc}, nové je v správcovi hesiel.|Nový PIN musí mať šesť číslic.|Nákup: mlieko, chlieb, jablká, káva|API kľúč pre {svc}:
et|Estonian|Märkus|Minu {svc} parool on {v}|Pangakaardi PIN-kood: {v}|Trepikoja uksekood: {v}|Kodune wifi parool: {v}|Valvesüsteemi kood: {v}|Kaart {v}, kehtib kuni {exp}, CVV {cvv}|Turvaküsimus (esimene lemmikloom): {v}|SMS-iga saadud kinnituskood on {v}|Hambaarst {date} kell {time}|Sünnipäev ({name}): {date}|Telefon ({name}): {phone}|Vahetasin täna {svc} parooli, uus on paroolihalduris.|Uus PIN peab olema kuuekohaline.|Poodi: piim, leib, õunad, kohv|{svc} API võti:
""".strip()

LANG_KEYS = ['code', 'name', 'note', 'pw', 'pin', 'door', 'wifi', 'alarm', 'card', 'answer', 'otp', 'appt', 'bday',
             'phone', 'changed', 'policy', 'shop', 'api']
LANGS = {}
for _line in LANG_SPEC.split('\n'):
    _p = _line.split('|')
    assert len(_p) == len(LANG_KEYS), _p[0]
    LANGS[_p[0]] = dict(zip(LANG_KEYS, _p))
LANG_CODES = list(LANGS)
NON_EN = [c for c in LANG_CODES if c != 'en']
BRAND_SVCS = ['Netflix', 'Gmail', 'Amazon', 'Instagram', 'Facebook', 'Spotify', 'PayPal', 'Steam', 'iCloud',
              'Outlook', 'LinkedIn', 'Dropbox', 'eBay', 'Booking.com', 'Airbnb', 'Uber', 'Zoom', 'Revolut', 'Wolt']


def sub(t, **kw):
    for k, v in kw.items():
        t = t.replace('{' + k + '}', str(v))
    return t


def lphrase(lang, key, **kw):
    kw.setdefault('svc', ch(BRAND_SVCS))
    kw.setdefault('date', date())
    kw.setdefault('time', hm())
    kw.setdefault('name', ch(NAMES))
    kw.setdefault('phone', phone())
    return sub(LANGS[lang][key], **kw)


# ---------------------------------------------------------------- content model
def T(s, lang='en'):
    return {'t': 'text', 'v': s, 'lang': lang}


def L(lines, lang='en'):
    return {'t': 'lines', 'v': list(lines), 'lang': lang}


def M(msgs, lang='en'):
    return {'t': 'msgs', 'v': list(msgs), 'lang': lang}


def F(d, lang='en'):
    return {'t': 'fields', 'v': dict(d), 'lang': lang}


def stamp():
    return ch([hm(), f'{date()} {hm()}', f'{ch(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])} {hm()}'])


def chat(lines, who=None):
    """lines: list of (speaker_index, text)"""
    people = who or R.sample(NAMES, 2)
    t0 = R.randint(7 * 60, 22 * 60)
    out = []
    for i, (sp, txt) in enumerate(lines):
        t0 += R.randint(0, 6)
        out.append((people[sp % len(people)], f'{t0 // 60 % 24:02d}:{t0 % 60:02d}', txt))
    return out


CHATTER = [
    "Mum's flight lands at 6:40 on Friday, terminal 2.", 'Take the antibiotics twice a day until Sunday.',
    'Book the car service for next month.', "Leo's football practice moved to Thursdays.",
    'Remember to water the tomatoes while we are away.', 'Dinner with the Okafors on Saturday at 7.',
    'Need to renew the library books before the 14th.', 'The physio said: stretch the left knee every morning.',
    'Pack the charger and the travel adapter.', 'Grandpa prefers decaf now.', 'Cancel the gym trial before it renews.',
    'Ask the landlord about the dripping tap.', "Emma's school play is at 5pm in the main hall.",
    'Buy a birthday card for Aunt Rosa.', 'Blood test results are fine, next check in six months.',
    'Try the ramen place near the station next time.', 'Train to Porto leaves 08:12 from platform 4.',
    'Dog needs the flea treatment on the 1st.', 'Return the blue jacket, receipt is in the drawer.',
    'Hotel check-in is after 3pm, breakfast included.', 'Call the plumber back about Tuesday.',
    'Finish chapter 6 of the book club novel.', 'Recycling goes out on Wednesday nights now.',
    'Yoga class switched to the small studio.', 'Bring snacks for the hike, it is about 14 km.',
    'Passport photos: ask for the biometric format.', 'Remember to send the slides to Priya before lunch.',
    'The kids want pancakes on Sunday.', 'Invoice for the bathroom tiles is due end of month.',
    'Car insurance renewal arrives in March.', 'Pick up the dry cleaning on the way home.',
    'Seed the lawn after the rain stops.', 'Flu shot at the pharmacy, no appointment needed.',
    'Teams standup moved to 9:30 from next week.', 'Sofia prefers the window seat.', 'Order more printer paper.',
]
TAGS = ['personal', 'todo', 'home', 'work', 'misc', 'remember', 'later', 'family', 'inbox', 'notes', 'imported',
        'phone', 'laptop', 'weekly', 'admin', 'travel', 'errands', 'archive']


def chatter(lang='en'):
    if lang != 'en' and chance(0.6):
        return lphrase(lang, ch(['appt', 'bday', 'shop']))
    return ch(CHATTER)


# ---------------------------------------------------------------- containers for key=value material
DECOY_ENV = ['NODE_ENV=production', 'PORT=8080', 'LOG_LEVEL=info', 'APP_NAME=orders-api', 'TZ=Europe/Berlin',
             'DEBUG=false', 'WORKERS=4', 'REGION=eu-west-1', 'FEATURE_FLAGS=new_checkout,dark_mode', 'CACHE_TTL=300',
             'SENTRY_ENVIRONMENT=staging', 'HTTP_TIMEOUT=30', 'PUBLIC_URL=https://shop.northwind.dev',
             'MAX_UPLOAD_MB=25', 'LOCALE=en_GB', 'RETRY_LIMIT=5', 'METRICS_PORT=9100', 'QUEUE_NAME=jobs-default']
DECOY_KV = [('timeout', '30'), ('enabled', 'true'), ('region', 'eu-west-1'), ('retries', '3'), ('log_level', 'info'),
            ('base_url', 'https://api.northwind.dev'), ('pool_size', '10'), ('environment', 'production')]
PROJECTS = ['OPS', 'INFRA', 'SHOP', 'DATA', 'PLAT', 'WEB', 'SEC', 'MOB']


def slug(s):
    return re.sub(r'[^a-z0-9]+', '_', s.lower()).strip('_')[:24] or 'svc'


def camel(k):
    parts = k.lower().split('_')
    return parts[0] + ''.join(p.title() for p in parts[1:])


def esc1(v):
    return v.replace('\n', '\\n')


def c_env(svc, vals):
    lines = R.sample(DECOY_ENV, R.randint(0, 3)) + [f'{k}={esc1(v)}' if ' ' not in v else f'{k}="{esc1(v)}"' for k, v in vals]
    if chance(0.4):
        lines.insert(0, f'# {svc}')
    return '\n'.join(lines)


def yaml_val(v, ind):
    if '\n' in v:
        return '|\n' + '\n'.join(' ' * (ind + 2) + x for x in v.split('\n'))
    return f'"{v}"' if chance(0.5) or ':' in v or v[:1] in '{[*&!%@`' else v


def c_yaml(svc, vals):
    out = [f'{slug(svc)}:']
    for k, v in R.sample(DECOY_KV, R.randint(0, 2)):
        out.append(f'  {k}: {v}')
    for k, v in vals:
        out.append(f'  {k.lower()}: {yaml_val(v, 2)}')
    return '\n'.join(out)


def c_json(svc, vals):
    d = {k: v for k, v in R.sample(DECOY_KV, R.randint(0, 2))}
    d.update({camel(k): v for k, v in vals})
    return json.dumps({slug(svc): d}, indent=2, ensure_ascii=False)


def c_toml(svc, vals):
    out = [f'[{slug(svc)}]']
    for k, v in R.sample(DECOY_KV, R.randint(0, 2)):
        out.append(f'{k} = "{v}"')
    for k, v in vals:
        out.append(f'{k.lower()} = """\n{v}\n"""' if '\n' in v else f'{k.lower()} = "{v}"')
    return '\n'.join(out)


def c_ini(svc, vals):
    out = [f'[{slug(svc)}]'] + [f'{k} = {v}' for k, v in R.sample(DECOY_KV, R.randint(0, 2))]
    out += [f'{k.lower()} = {esc1(v)}' for k, v in vals]
    return '\n'.join(out)


def c_compose(svc, vals):
    out = ['services:', f'  {ch(["app", "api", "worker", "web"])}:',
           f'    image: ghcr.io/{ch(["acme", "northwind", "contoso"])}/{ch(["api", "shop", "etl"])}:{fill("{semver}")}',
           '    environment:']
    out += [f'      - {k}={esc1(v)}' for k, v in vals]
    if chance(0.5):
        out.insert(3, '    ports:\n      - "8080:8080"')
    return '\n'.join(out)


def c_k8s(svc, vals):
    out = ['apiVersion: v1', 'kind: Secret', 'metadata:', f'  name: {slug(svc).replace("_", "-")}-credentials',
           f'  namespace: {ch(["default", "prod", "payments", "platform"])}', 'type: Opaque', 'stringData:']
    out += [f'  {k}: {yaml_val(v, 2)}' for k, v in vals]
    return '\n'.join(out)


def c_terraform(svc, vals):
    if chance(0.5):
        body = '\n'.join(f'  {k.lower()} = "{esc1(v)}"' for k, v in vals)
        return f'provider "{slug(svc)}" {{\n{body}\n}}'
    k, v = vals[-1]
    return f'variable "{k.lower()}" {{\n  type      = string\n  default   = "{esc1(v)}"\n  sensitive = true\n}}'


def c_python(svc, vals):
    if chance(0.5):
        return '\n'.join(f'{k} = """{v}"""' if '\n' in v else f'{k} = "{v}"' for k, v in vals)
    args = ', '.join(f'{k.lower()}="{esc1(v)}"' for k, v in vals)
    return f'import {slug(svc)}\n\nclient = {slug(svc)}.Client({args})\nclient.ping()'


def c_js(svc, vals):
    kw = ch(['const', 'let', 'export const'])
    return '\n'.join(f'{kw} {camel(k)} = "{esc1(v)}";' if chance(0.5) else f'{kw} {camel(k)} = `{v}`;' for k, v in vals)


def c_ts(svc, vals):
    body = ',\n'.join(f'  {camel(k)}: "{esc1(v)}"' for k, v in vals)
    return f'export const {camel(slug(svc))}Config: ClientOptions = {{\n{body},\n}};'


def c_go(svc, vals):
    return 'const (\n' + '\n'.join(f'\t{camel(k)} = "{esc1(v)}"' for k, v in vals) + '\n)'


def c_java(svc, vals):
    return '\n'.join(f'private static final String {k} = "{esc1(v)}";' for k, v in vals)


def c_ruby(svc, vals):
    return '\n'.join(f"ENV['{k}'] ||= '{esc1(v)}'" for k, v in vals)


def c_php(svc, vals):
    return '<?php\n' + '\n'.join(f"define('{k}', '{esc1(v)}');" if chance(0.5) else f"$config['{k.lower()}'] = '{esc1(v)}';" for k, v in vals)


def c_csharp(svc, vals):
    return '\n'.join(f'var {camel(k)} = "{esc1(v)}";' for k, v in vals) + f'\nvar client = new {slug(svc).title().replace("_", "")}Client({camel(vals[-1][0])});'


def c_rust(svc, vals):
    return '\n'.join(f'const {k}: &str = "{esc1(v)}";' for k, v in vals)


def c_kotlin(svc, vals):
    return '\n'.join(f'val {camel(k)} = "{esc1(v)}"' for k, v in vals)


def c_shell(svc, vals):
    return '\n'.join(f"export {k}='{v}'" for k, v in vals)


def c_powershell(svc, vals):
    return '\n'.join(f'$env:{k} = "{esc1(v)}"' for k, v in vals)


def c_curl(svc, vals):
    k, v = vals[-1]
    if v.startswith('http'):
        return f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"deploy finished\"}}' '{v}'"
    if len(vals) >= 2:
        return f'curl -u "{vals[0][1]}:{v}" https://api.{slug(svc).replace("_", "")}.com/v1/{ch(["accounts", "status", "events"])}'
    return f'curl -s -H "Authorization: Bearer {esc1(v)}" https://api.{slug(svc).replace("_", "")}.com/v1/{ch(["me", "usage", "projects"])}'


def c_http(svc, vals):
    k, v = vals[-1]
    host = f'api.{slug(svc).replace("_", "")}.com'
    hdr = f'Authorization: Bearer {esc1(v)}' if len(vals) == 1 else \
        'Authorization: Basic ' + base64.b64encode(f'{vals[0][1]}:{v}'.encode()).decode() if chance(0.5) else \
        f'{"X-" + vals[0][0].title().replace("_", "-")}: {vals[0][1]}\nX-Api-Secret: {esc1(v)}'
    return f'{ch(["GET", "POST"])} /v1/{ch(["orders", "messages", "sync"])} HTTP/1.1\nHost: {host}\n{hdr}\nAccept: application/json'


def c_cilog(svc, vals):
    n = R.randint(1, 30)
    out = [f'#{n} [build 3/7] RUN npm ci', f'2024-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{hm()}:{R.randint(10, 59)}Z Step {n}/{n + 4} : ENV setup']
    out += [f'+ export {k}={esc1(v)}' if chance(0.5) else f'[debug] {k} resolved to {esc1(v)}' for k, v in vals]
    out.append(ch(['Tests: 214 passed, 0 failed', 'Done in 41.2s.', 'Uploading artifacts...']))
    return '\n'.join(out)


def c_trace(svc, vals):
    k, v = vals[-1]
    return (f'Traceback (most recent call last):\n  File "/srv/app/integrations/{slug(svc)}.py", line {R.randint(20, 300)}, in connect\n'
            f'    resp = session.post(url, headers=headers)\n{ch(["requests.exceptions.HTTPError", "ConnectionError", "AuthError"])}: '
            f'{ch(["401 Client Error", "timeout after 30s", "403 Forbidden"])}\nlocals: url=\'https://api.{slug(svc)}.com\', '
            + ', '.join(f"{k.lower()}='{esc1(v)}'" for k, v in vals))


def c_ticket(svc, vals):
    body = '\n'.join(f'{k}={esc1(v)}' for k, v in vals)
    return (f'[{ch(PROJECTS)}-{R.randint(100, 9999)}] {svc} integration failing on staging\nReporter: {ch(NAMES)} {ch(SURNAMES)}\n'
            f'Priority: {ch(["P2", "P3", "High", "Medium"])}\nDescription: calls return 401 since this morning. Config in use:\n{body}\n'
            f'Steps to reproduce: run the nightly sync.')


def c_email(svc, vals):
    a, b = R.sample(NAMES, 2)
    body = '\n'.join(f'{k}: {v}' for k, v in vals)
    return (f'Subject: {svc} access for the new project\nFrom: {b.lower()}@{ch(DOMAINS)}\nTo: {a.lower()}@{ch(DOMAINS)}\n\n'
            f'Hi {a},\n\nas promised, here are the {svc} credentials:\n\n{body}\n\n{ch(["Cheers", "Best", "Thanks"])},\n{b}')


def c_chat(svc, vals, lang='en'):
    body = ' / '.join(f'{k}={v}' if len(vals) > 1 else v for k, v in vals)
    if lang != 'en':
        lines = [(0, lphrase(lang, 'api', svc=svc) + ' ' + body), (1, ch(['👍', 'ok', '🙏', 'thx', '✅']))]
    else:
        lines = [(1, ch([f'can you send me the {svc} key for staging?', f'what was the {svc} token again?',
                         f'do you have the {svc} creds?'])),
                 (0, ch(['sure: ', 'here: ', 'use this one: ', '']) + body), (1, ch(['thanks!', 'got it', 'perfect 🙏']))]
    return M(chat(lines), lang)


def c_sms(svc, vals):
    body = ' '.join(f'{k}={v}' for k, v in vals) if len(vals) > 1 else vals[0][1]
    return f'SMS from {ch(NAMES)} ({stamp()}): {ch(["here is the", "new", "the"])} {svc} key {body} - {ch(["delete after saving", "dont share", "for the kiosk"])}'


def c_voice(svc, vals):
    body = ', and then '.join(f'{k.lower().replace("_", " ")} is {v}' for k, v in vals)
    return (f'[voice memo {R.randint(0, 2)}:{R.randint(10, 59)}] okay so, um, for the {svc} thing, {body}, '
            f'{ch(["I copied it from the dashboard", "uh, got that off the admin page", "remind me to rotate it"])}... anyway, {ch(CHATTER).lower()}')


def c_notes(svc, vals):
    return f'{svc} {ch(["creds", "credentials", "keys", "access"])}\n' + '\n'.join(f'{k}: {v}' for k, v in vals)


def c_form(svc, vals):
    d = {'service': svc, 'environment': ch(['production', 'prod', 'live', 'staging'])}
    for k, v in vals:
        d[k.lower()] = v
    d['owner'] = ch(NAMES)
    return F(d)


def c_prose(svc, vals):
    body = ' and '.join(f'{k} {v}' for k, v in vals) if len(vals) > 1 else vals[0][1]
    return ch([f'Finally got {svc} working for the shop today. It uses {body}; remember to rotate it next quarter.',
               f'For future me: the {svc} integration broke because the old key expired, the new one is {body}. Took two hours to figure out.',
               f'{ch(NAMES)} asked me to keep this safe until Monday: {svc} -> {body}. After that it goes into the vault.'])


def c_lang(svc, vals, lang, form):
    body = '\n'.join(f'{k}={v}' for k, v in vals) if len(vals) > 1 else vals[0][1]
    head = lphrase(lang, 'api', svc=svc)
    if form == 'notes':
        return T(f'{head}\n{body}', lang)
    if form == 'prose':
        return T(f'{lphrase(lang, "appt")}. {head} {body}', lang)
    if form == 'form':
        return F({LANGS[lang]['note']: f'{head} {body}', 'service': svc}, lang)
    return c_chat(svc, vals, lang)


CONTAINERS = {'env-file': c_env, 'yaml': c_yaml, 'json': c_json, 'toml': c_toml, 'ini': c_ini,
              'docker-compose': c_compose, 'k8s-manifest': c_k8s, 'terraform': c_terraform, 'code-python': c_python,
              'code-javascript': c_js, 'code-typescript': c_ts, 'code-go': c_go, 'code-java': c_java,
              'code-ruby': c_ruby, 'code-php': c_php, 'code-csharp': c_csharp, 'code-rust': c_rust,
              'code-kotlin': c_kotlin, 'shell': c_shell, 'powershell': c_powershell, 'curl': c_curl,
              'http-request': c_http, 'ci-log': c_cilog, 'stack-trace': c_trace, 'ticket': c_ticket,
              'email': c_email, 'chat': c_chat, 'sms': c_sms, 'voice-transcript': c_voice, 'notes': c_notes,
              'form': c_form, 'prose': c_prose}


def render_kv(segment, svc, vals, lang='en'):
    if segment.rsplit('-', 1)[-1] in LANGS and segment.split('-')[0] in ('notes', 'chat', 'form', 'prose'):
        return c_lang(svc, vals, lang, segment.split('-')[0])
    r = CONTAINERS[segment](svc, vals)
    if isinstance(r, dict):
        return r
    return T(r, lang)


# ---------------------------------------------------------------- personal secrets
BIP = ('abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid '
       'acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice '
       'aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all '
       'alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient '
       'anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple '
       'approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact '
       'artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction '
       'audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby '
       'bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket '
       'battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best '
       'betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak '
       'bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring '
       'borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring '
       'brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle '
       'bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm '
       'camera camp canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet '
       'carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling '
       'celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap '
       'check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar '
       'cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic '
       'clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin '
       'collect color column combine come comfort comic common company concert conduct confirm congress connect consider '
       'control convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin '
       'cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp '
       'critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard '
       'curious current curtain curve cushion custom cute cycle dad damage damp dance danger daring dash daughter dawn day '
       'deal debate debris decade december decide decline decorate decrease deer defense define defy degree delay deliver '
       'demand demise denial dentist deny depart depend deposit depth deputy derive describe desert design desk despair '
       'destroy detail detect develop device devote diagram dial diamond diary dice diesel diet differ digital dignity '
       'dilemma dinner dinosaur direct dirt disagree discover disease dish dismiss disorder display distance divert divide '
       'divorce dizzy doctor document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama '
       'drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf '
       'dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight '
       'either elbow elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion').split()


def human_pw():
    w = ch(WORDS)
    return ch([lambda: w.capitalize() + str(R.randint(1970, 2024)) + ch('!?#$*.'),
               lambda: ch(PETS) + str(R.randint(10, 99)) + ch(['', '!', '#']),
               lambda: ch(WORDS) + ch(WORDS).capitalize() + rs(DIG, 2),
               lambda: pw_strong(R.randint(10, 18)),
               lambda: '-'.join(R.sample(WORDS, 3)) + '-' + rs(DIG, R.randint(1, 3)),
               lambda: ''.join({'a': '4', 'e': '3', 'o': '0', 'i': '1', 's': '$'}.get(c, c) for c in w.capitalize()) + rs(DIG, 3),
               lambda: ch(NAMES) + '.' + ch(SURNAMES)[:3].lower() + rs(DIG, 4)])()


def pin(n=None):
    return rs(DIG, n or ch([4, 4, 4, 6, 5]))


def door_code():
    return ch([rs(DIG, 4), rs(DIG, 5), rs(DIG, 4) + '#', '*' + rs(DIG, 4), ch('ABCD') + rs(DIG, 4), rs(DIG, 6)])


def safe_combo():
    return ch([f'{R.randint(0, 39):02d}-{R.randint(0, 39):02d}-{R.randint(0, 39):02d}', rs(DIG, 6),
               f'right {R.randint(1, 99)}, left {R.randint(1, 99)}, right {R.randint(1, 99)}'])


def backup_codes():
    n = R.randint(5, 10)
    if chance(0.5):
        return [f'{rs(DIG, 4)} {rs(DIG, 4)}' for _ in range(n)]
    return [f'{rs(LOW + DIG, 4)}-{rs(LOW + DIG, 4)}' for _ in range(n)]


def seed_phrase():
    return ' '.join(R.choice(BIP) for _ in range(ch([12, 12, 24, 18])))


def gift_code():
    return ch([lambda: ('Amazon', f'{rs(UPP + DIG, 4)}-{rs(UPP + DIG, 6)}-{rs(UPP + DIG, 4)}'),
               lambda: ('Steam', f'{rs(UPP + DIG, 5)}-{rs(UPP + DIG, 5)}-{rs(UPP + DIG, 5)}'),
               lambda: ('Google Play', rs(UPP + DIG, 20)),
               lambda: ('Apple', 'X' + rs(UPP + DIG, 15)),
               lambda: ('PlayStation', f'{rs(UPP + DIG, 4)}-{rs(UPP + DIG, 4)}-{rs(UPP + DIG, 4)}'),
               lambda: ('Xbox', '-'.join(rs('BCDFGHJKMPQRTVWXY2346789', 5) for _ in range(5)))])()


ANSWER_Q = [('first pet', lambda: ch(PETS)), ("mother's maiden name", lambda: ch(SURNAMES)),
            ('city where you were born', lambda: ch(CITIES)), ('first school', lambda: ch(['St. Mary', 'Riverside Primary', 'Grundschule am Park', 'Escola Nova'])),
            ('favourite teacher', lambda: 'Mr. ' + ch(SURNAMES)), ('first car', lambda: ch(['Fiat Panda', 'VW Polo', 'Corolla', 'Renault 5'])),
            ('street you grew up on', lambda: ch(['Elm Street', 'Rua Augusta', 'Lindenweg', 'Calle Luna']))]
SSIDS = ['FRITZ!Box 7590 XL', 'Vodafone-4F2A', 'HomeNet-5G', 'Casa_Silva', 'TP-Link_8C21', 'Livebox-93B0', 'NETGEAR47',
         'skynet', 'Pretty Fly for a WiFi', 'Bbox-7A1C2D', 'Ziggo8843', 'OfficeGuest']


def en_personal():
    """English personal secret -> (kind, content)"""
    nm1, nm2 = R.sample(NAMES, 2)
    pw, code = human_pw(), door_code()
    brand, num = card()
    ex, cvv = expiry(), rs(DIG, 4 if brand == 'Amex' else 3)
    svc = ch(SERVICES)
    q, af = ch(ANSWER_Q)
    opts = [
        ('password', lambda: T(f'{svc} login: {email()} / {pw}')),
        ('password', lambda: T(f'New {svc} password (changed {date()}): {pw}')),
        ('password', lambda: M(chat([(0, f'what is the {svc} password again?'), (1, pw), (0, 'thx ❤️')]))),
        ('password', lambda: F({'site': svc, 'username': email(), 'password': pw, 'notes': ch(['shared with family', 'mine', 'kids account'])})),
        ('password', lambda: T(f'[voice note] reminder, the laptop password is {pw}, and tomorrow I need to call {nm1} about the dentist')),
        ('password', lambda: T(f'Hi! Could you remember my work computer password for me? It is {pw}. Thanks!')),
        ('pin', lambda: T(f'{ch(BANKS)} card PIN {pin(4)}')),
        ('pin', lambda: M(chat([(0, 'mum what was the pin for the card you gave me'), (1, f'{pin(4)} and dont tell your brother'), (0, 'ok')]))),
        ('pin', lambda: T(f'Phone unlock PIN: {pin(6)} (Samsung), tablet is {pin(4)}')),
        ('puk', lambda: T(f'SIM card ({ch(["Vodafone", "Orange", "O2", "Movistar", "TIM"])}): PIN {pin(4)}, PUK {pin(8)}')),
        ('door-code', lambda: T(f'Building front door code: {code}, then ring {R.randint(1, 9)}{ch("ABCDE")}')),
        ('door-code', lambda: M(chat([(0, "I'm downstairs, what's the door code?"), (1, code), (0, "in, thanks!")]))),
        ('door-code', lambda: T(f'Airbnb in {ch(CITIES)}: check-in from 3pm, lockbox code {rs(DIG, 4)}, wifi {ch(SSIDS)} / {human_pw()}')),
        ('alarm-code', lambda: T(f'Alarm panel code is {rs(DIG, 4)}. You have 30 seconds after opening the door. Dog food is in the pantry.')),
        ('alarm-code', lambda: T(f'Subject: house sitting\n\nHi {nm1},\nthanks again for watching the cat! The alarm code is {rs(DIG, 4)}, spare key in the key box by the shed (code {rs(DIG, 4)}). Wifi: {human_pw()}.\nPlants need water every two days.\n\n{nm2}')),
        ('garage-code', lambda: M(chat([(0, 'dad whats the garage code'), (1, f'{rs(DIG, ch([4, 6]))} then press the up arrow'), (0, '👍')]))),
        ('garage-code', lambda: T(f'Garage keypad: {rs(DIG, 4)}#. Bikes go on the left wall.')),
        ('safe-code', lambda: T(f'Hotel room safe set to {rs(DIG, 4)} (room {R.randint(100, 999)})')),
        ('safe-code', lambda: T(f'Safe in the wardrobe: {safe_combo()}. Passports and the gold necklace are in there.')),
        ('locker-code', lambda: T(f'Gym locker combination {rs(DIG, ch([3, 4]))}, locker #{R.randint(1, 300)}')),
        ('keybox-code', lambda: T(f'Key box at grandma\'s back door: {rs(DIG, 4)}')),
        ('otp', lambda: T(f'SMS ({stamp()}): Your {ch(BRAND_SVCS)} verification code is {rs(DIG, 6)}. Do not share it with anyone.')),
        ('otp', lambda: M(chat([(1, f'Hi, it\'s {nm2} from support, I sent you a code, can you read it to me?'), (0, f'ok it says {rs(DIG, 3)} {rs(DIG, 3)}')]))),
        ('backup-codes', lambda: L([f'{svc} backup codes ({date()}):'] + backup_codes())),
        ('backup-codes', lambda: T(f'2FA recovery codes for {ch(["GitHub", "Google", "Proton", "Microsoft", "Discord"])}: ' + ', '.join(backup_codes()))),
        ('seed-phrase', lambda: T(f'Ledger recovery phrase (wrote it from the card): {seed_phrase()}')),
        ('seed-phrase', lambda: L(['MetaMask seed, keep safe:'] + seed_phrase().split())),
        ('seed-phrase', lambda: T(f'my wallet words are {seed_phrase()}  - dont lose this!!')),
        ('security-answer', lambda: T(f'{ch(BANKS)} security question "{q}": {af()}')),
        ('security-answer', lambda: F({'account': svc, 'security_question': q, 'answer': af()})),
        ('card-number', lambda: T(f'{brand} {fmt_card(num)} exp {ex} cvv {cvv}')),
        ('card-number', lambda: F({'cardholder': f'{nm1} {ch(SURNAMES)}', 'number': fmt_card(num), 'expiry': ex, 'cvc': cvv})),
        ('card-number', lambda: M(chat([(0, 'can you book the tickets with my card?'), (1, 'sure send it'), (0, f'{num} {ex} {cvv}'), (1, 'done, confirmation in your email')]))),
        ('card-number', lambda: T(f'Company {brand} for travel: {fmt_card(num)}, valid thru {ex}')),
        ('gift-card', lambda: (lambda g: T(f'{g[0]} gift card from grandma, claim code {g[1]}'))(gift_code())),
        ('gift-card', lambda: (lambda g: M(chat([(1, f'happy birthday!! here is your {g[0]} code: {g[1]}'), (0, 'omg thank you')])))(gift_code())),
        ('wifi-password', lambda: T(f'Wifi: {ch(SSIDS)} / {pw}')),
        ('wifi-password', lambda: M(chat([(0, 'whats the wifi pw'), (1, f'network {ch(SSIDS)}, password {pw}')]))),
        ('wifi-password', lambda: F({'ssid': ch(SSIDS), 'password': pw, 'router': ch(['Fritz!Box', 'TP-Link', 'Eero'])})),
        ('bank-login', lambda: T(f'{ch(BANKS)} online banking: user {rs(DIG, 8)}, password {pw}')),
        ('bank-login', lambda: F({'bank': ch(BANKS), 'login_id': rs(DIG, 10), 'password': pw, 'telebanking_pin': rs(DIG, 5)})),
        ('bank-login', lambda: T(f'Mum asked me to write down her {ch(BANKS)} login so I can help her: customer number {rs(DIG, 9)}, password {pw}. She also wants the new kettle from the market.')),
        ('password', lambda: T(f'Note to self: the {ch(["Synology", "router admin", "printer", "NAS", "smart TV"])} password is {pw}. {ch(CHATTER)}')),
        ('pin', lambda: T(f'Voicemail PIN {pin(4)}, car radio code {pin(4)}')),
        ('password', lambda: L([f'{s}: {human_pw()}' for s in R.sample(SERVICES, R.randint(2, 5))])),
    ]
    kind, f = ch(opts)
    return kind, f()


def ml_personal(lang):
    key = ch(['pw', 'pw', 'pin', 'door', 'wifi', 'alarm', 'card', 'answer', 'otp'])
    kindmap = {'pw': 'password', 'pin': 'pin', 'door': 'door-code', 'wifi': 'wifi-password', 'alarm': 'alarm-code',
               'card': 'card-number', 'answer': 'security-answer', 'otp': 'otp'}
    brand, num = card()
    v = {'pw': human_pw(), 'pin': pin(4), 'door': door_code(), 'wifi': human_pw(), 'alarm': rs(DIG, 4),
         'card': fmt_card(num), 'answer': ch(ANSWER_Q)[1](), 'otp': rs(DIG, 6)}[key]
    txt = lphrase(lang, key, v=v, exp=expiry(), cvv=rs(DIG, 3))
    form = ch(['notes', 'notes', 'chat', 'form', 'prose', 'sms'])
    if form == 'chat':
        c = M(chat([(0, txt), (1, ch(['👍', 'ok', '❤️', '✅', '🙏']))]), lang)
    elif form == 'form':
        c = F({LANGS[lang]['note']: txt, 'date': date()}, lang)
    elif form == 'prose':
        c = T(f'{lphrase(lang, ch(["appt", "bday", "shop"]))}. {txt}. {lphrase(lang, ch(["appt", "shop"]))}.', lang)
    elif form == 'sms':
        c = T(f'SMS {stamp()}: {txt}', lang)
    else:
        c = T(txt, lang)
    return kindmap[key], form, c


def guess_source(c):
    if c['t'] == 'msgs':
        return 'chat'
    if c['t'] == 'fields':
        return 'form'
    if c['t'] == 'lines':
        return 'notes'
    s = c['v']
    if s.startswith('SMS'):
        return 'sms'
    if s.startswith('[voice'):
        return 'voice-transcript'
    if s.startswith('Subject:'):
        return 'email'
    return 'prose' if len(s) > 110 else 'notes'


# ---------------------------------------------------------------- evasion payloads
SIMPLE_VENDORS = [v for v in VENDORS if not re.search(r'\{(pem|openssh|pgppriv|ppk|gcpsa|kubeconfig|dockercfg|jwk|jwt)', v[2][-1][1])
                  and '\\n' not in v[2][-1][1]]


def tok_payload(maxlen=90):
    while True:
        kind, svc, vals = make_vendor(ch(SIMPLE_VENDORS))
        k, v = vals[-1]
        if len(v) <= maxlen and '\n' not in v:
            label = f'{svc} {ch(["key", "token", "secret", "API key", "credential"])}' if 'PASS' not in k else f'{svc} password'
            return kind, label, v


def pers_payload(digits_only=False):
    if digits_only:
        kind, label, v = ch([('pin', 'card PIN', lambda: pin(4)), ('door-code', 'door code', lambda: rs(DIG, ch([4, 5, 6]))),
                             ('alarm-code', 'alarm code', lambda: rs(DIG, 4)), ('garage-code', 'garage code', lambda: rs(DIG, 4)),
                             ('safe-code', 'safe combination', lambda: rs(DIG, 6)), ('pin', 'phone PIN', lambda: pin(6)),
                             ('puk', 'PUK', lambda: pin(8)), ('locker-code', 'locker code', lambda: rs(DIG, 4)),
                             ('keybox-code', 'key box code', lambda: rs(DIG, 4)), ('otp', 'login code', lambda: rs(DIG, 6))])
        return kind, label, v()
    kind, label, v = ch([('password', f'{ch(SERVICES)} password', human_pw), ('wifi-password', 'wifi password', human_pw),
                         ('password', 'laptop password', human_pw), ('bank-login', f'{ch(BANKS)} banking password', human_pw),
                         ('password', 'email password', human_pw)])
    return kind, label, v()


def any_payload(maxlen=90):
    r = R.random()
    if r < 0.55:
        return tok_payload(maxlen)
    if r < 0.8:
        return pers_payload()
    return pers_payload(True)


def alnum_payload():
    while True:
        k, l, v = any_payload(40)
        if re.fullmatch(r'[A-Za-z0-9_\-]+', v):
            return k, l, v


def card_payload():
    brand, num = card()
    return 'card-number', f'{brand} card', num


# ---------------------------------------------------------------- transforms
MORSE = dict(zip('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_', '.- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----. -....- ..--.-'.split()))
NATO = dict(zip(UPP, 'Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey X-ray Yankee Zulu'.split()))
DIGW = {
    'en': 'zero one two three four five six seven eight nine', 'de': 'null eins zwei drei vier fünf sechs sieben acht neun',
    'fr': 'zéro un deux trois quatre cinq six sept huit neuf', 'es': 'cero uno dos tres cuatro cinco seis siete ocho nueve',
    'it': 'zero uno due tre quattro cinque sei sette otto nove', 'pt': 'zero um dois três quatro cinco seis sete oito nove',
    'nl': 'nul een twee drie vier vijf zes zeven acht negen', 'sv': 'noll ett två tre fyra fem sex sju åtta nio',
    'da': 'nul en to tre fire fem seks syv otte ni', 'fi': 'nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän',
    'pl': 'zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć', 'cs': 'nula jedna dva tři čtyři pět šest sedm osm devět',
    'hu': 'nulla egy kettő három négy öt hat hét nyolc kilenc', 'ro': 'zero unu doi trei patru cinci șase șapte opt nouă',
    'tr': 'sıfır bir iki üç dört beş altı yedi sekiz dokuz', 'el': 'μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα',
    'ru': 'ноль один два три четыре пять шесть семь восемь девять', 'uk': 'нуль один два три чотири пʼять шість сім вісім девʼять',
    'ar': 'صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة', 'he': 'אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע',
    'hi': 'शून्य एक दो तीन चार पाँच छह सात आठ नौ', 'zh': '零 一 二 三 四 五 六 七 八 九', 'ja': 'ゼロ いち に さん よん ご ろく なな はち きゅう',
    'ko': '공 일 이 삼 사 오 육 칠 팔 구', 'vi': 'không một hai ba bốn năm sáu bảy tám chín',
    'id': 'nol satu dua tiga empat lima enam tujuh delapan sembilan', 'sw': 'sifuri moja mbili tatu nne tano sita saba nane tisa',
    'tl': 'sero isa dalawa tatlo apat lima anim pito walo siyam', 'th': 'ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า',
    'fa': 'صفر یک دو سه چهار پنج شش هفت هشت نه', 'bg': 'нула едно две три четири пет шест седем осем девет',
    'ca': 'zero u dos tres quatre cinc sis set vuit nou'}
DIGW = {k: v.split() for k, v in DIGW.items()}
HOMO = {'a': 'а', 'e': 'е', 'o': 'о', 'p': 'р', 'c': 'с', 'x': 'х', 'y': 'у', 'i': 'і', 'A': 'А', 'B': 'В', 'E': 'Е',
        'K': 'К', 'M': 'М', 'H': 'Н', 'O': 'О', 'P': 'Р', 'C': 'С', 'T': 'Т', 'X': 'Х', 'S': 'Ѕ', 'j': 'ј'}
ROMAN = ['N', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX']
BRAILLE_L = dict(zip(LOW, '⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵'))
KEYPAD = {'2': 'ABC', '3': 'DEF', '4': 'GHI', '5': 'JKL', '6': 'MNO', '7': 'PQRS', '8': 'TUV', '9': 'WXYZ'}


def b64s(s):
    return base64.b64encode(s.encode()).decode()


def mathbold(c):
    if c.isupper() and c.isascii():
        return chr(0x1D400 + ord(c) - 65)
    if c.islower() and c.isascii():
        return chr(0x1D41A + ord(c) - 97)
    if c.isdigit():
        return chr(0x1D7CE + ord(c) - 48)
    return c


def vig(s, key):
    out, j = [], 0
    for c in s:
        if c.isascii() and c.isalpha():
            base = 65 if c.isupper() else 97
            out.append(chr((ord(c) - base + ord(key[j % len(key)]) - 65) % 26 + base))
            j += 1
        else:
            out.append(c)
    return ''.join(out)


def caesar(s, k):
    return ''.join(chr((ord(c) - 65 + k) % 26 + 65) if 'A' <= c <= 'Z' else chr((ord(c) - 97 + k) % 26 + 97) if 'a' <= c <= 'z' else c for c in s)


def braille(s):
    out = []
    for c in s:
        if c.isdigit():
            out.append('⠼' + BRAILLE_L['jabcdefghi'[int(c)]])
        elif c.lower() in BRAILLE_L:
            out.append(('⠠' if c.isupper() else '') + BRAILLE_L[c.lower()])
        else:
            out.append(c)
    return ''.join(out)


def xor_hex(s):
    k = R.randint(17, 250)
    return ''.join('%02x' % (b ^ k) for b in s.encode()), f'XOR every byte with 0x{k:02x}'


def interleave(s):
    f = ch(['#', '~', '.', 'x', '*'])
    return ''.join(c + f for c in s), f'drop every second character (the {f}s)'


# name -> (fn(s) -> (encoded, hint), payload-type) ; payload type: any | alnum | digits
TRANSFORMS = {
    'base64': (lambda s: (b64s(s), 'base64'), 'any'),
    'base64url-nopad': (lambda s: (base64.urlsafe_b64encode(s.encode()).decode().rstrip('='), 'base64url'), 'any'),
    'base32': (lambda s: (base64.b32encode(s.encode()).decode(), 'base32'), 'any'),
    'hex': (lambda s: (s.encode().hex(), 'hex'), 'any'),
    'hex-upper-spaced': (lambda s: (' '.join('%02X' % b for b in s.encode()), 'hex bytes'), 'any'),
    'hex-0x-list': (lambda s: (', '.join('0x%02x' % b for b in s.encode()), 'bytes'), 'any'),
    'backslash-x-escapes': (lambda s: (''.join('\\x%02x' % b for b in s.encode()), 'escaped'), 'any'),
    'url-percent-all': (lambda s: (''.join('%%%02X' % b for b in s.encode()), 'url-encoded'), 'any'),
    'rot13': (lambda s: (codecs.encode(s, 'rot13'), 'rot13'), 'any'),
    'rot47': (lambda s: (''.join(chr(33 + (ord(c) - 33 + 47) % 94) if 33 <= ord(c) <= 126 else c for c in s), 'rot47'), 'any'),
    'reversed': (lambda s: (s[::-1], 'written backwards'), 'any'),
    'base64-then-reversed': (lambda s: (b64s(s)[::-1], 'base64, string reversed'), 'any'),
    'reversed-then-base64': (lambda s: (b64s(s[::-1]), 'base64 of the reversed value'), 'any'),
    'decimal-charcodes': (lambda s: (' '.join(str(ord(c)) for c in s), 'ASCII codes'), 'any'),
    'octal-escapes': (lambda s: (''.join('\\%03o' % b for b in s.encode()), 'octal'), 'any'),
    'binary-octets': (lambda s: (' '.join(format(b, '08b') for b in s.encode()), 'binary'), 'any'),
    'morse': (lambda s: (' / '.join(' '.join(MORSE[c.upper()] for c in w) for w in [s]) , 'morse, case not kept: lowercase letters except the prefix'), 'morse'),
    'nato-phonetic': (lambda s: (' '.join(NATO[c.upper()].upper() if c.isupper() else NATO[c.upper()].lower() if c.isalpha() else DIGW['en'][int(c)] if c.isdigit() else {'_': 'underscore', '-': 'dash'}.get(c, c) for c in s), 'NATO alphabet, CAPS word = capital letter'), 'alnum'),
    'atbash': (lambda s: (''.join(chr(155 - ord(c)) if 'A' <= c <= 'Z' else chr(219 - ord(c)) if 'a' <= c <= 'z' else c for c in s), 'atbash (A<->Z)'), 'any'),
    'caesar-plus3': (lambda s: (caesar(s, 3), 'letters shifted forward by 3, shift back to use'), 'any'),
    'vigenere-keyed': (lambda s: (vig(s, 'LEMON'), 'Vigenere with key LEMON (letters only)'), 'any'),
    'xor-single-byte': (xor_hex, 'any'),
    'ascii85': (lambda s: (base64.a85encode(s.encode()).decode(), 'ascii85'), 'any'),
    'base85': (lambda s: (base64.b85encode(s.encode()).decode(), 'base85'), 'any'),
    'quoted-printable-all': (lambda s: (''.join('=%02X' % b for b in s.encode()), 'quoted-printable'), 'any'),
    'html-decimal-entities': (lambda s: (''.join('&#%d;' % ord(c) for c in s), 'html entities'), 'any'),
    'html-hex-entities': (lambda s: (''.join('&#x%x;' % ord(c) for c in s), 'html entities'), 'any'),
    'unicode-escapes': (lambda s: (''.join('\\u%04x' % ord(c) for c in s), 'JSON escapes'), 'any'),
    'python-bytes-list': (lambda s: ('bytes([' + ', '.join(str(b) for b in s.encode()) + ']).decode()', 'python'), 'any'),
    'js-fromcharcode': (lambda s: ('String.fromCharCode(' + ','.join(str(ord(c)) for c in s) + ')', 'js'), 'any'),
    'java-char-array': (lambda s: ('new String(new char[]{' + ','.join(f"'{c}'" if c not in "'\\" else f"'\\{c}'" for c in s) + '})', 'java'), 'any'),
    'c-byte-array': (lambda s: ('static const char k[] = {' + ', '.join('0x%02x' % b for b in s.encode()) + ', 0x00};', 'C'), 'any'),
    'zlib-base64': (lambda s: (base64.b64encode(zlib.compress(s.encode(), 9)).decode(), 'zlib + base64'), 'any'),
    'gzip-base64': (lambda s: (base64.b64encode(gzip.compress(s.encode(), mtime=0)).decode(), 'gzip + base64'), 'any'),
    'double-base64': (lambda s: (b64s(b64s(s)), 'base64 twice'), 'any'),
    'base64-wrapped-8': (lambda s: ('\n'.join(b64s(s)[i:i + 8] for i in range(0, len(b64s(s)), 8)), 'base64, join the lines'), 'any'),
    'uuencode': (lambda s: (binascii.b2a_uu(s.encode()).decode().rstrip('\n'), 'uuencoded'), 'short'),
    'fullwidth-forms': (lambda s: (''.join(chr(ord(c) + 0xFEE0) if '!' <= c <= '~' else c for c in s), 'wide characters'), 'any'),
    'math-bold-letters': (lambda s: (''.join(mathbold(c) for c in s), 'bold'), 'any'),
    'cyrillic-homoglyphs': (lambda s: (''.join(HOMO.get(c, c) if chance(0.7) else c for c in s), 'looks normal'), 'any'),
    'zero-width-space-between': (lambda s: ('\u200b'.join(s), 'invisible spaces inside'), 'any'),
    'zero-width-mixed': (lambda s: (''.join(c + ch(['\u200d', '\u200c', '\u2060', '']) for c in s), 'has invisible joiners'), 'any'),
    'soft-hyphens': (lambda s: ('\u00ad'.join(s), 'soft hyphens'), 'any'),
    'combining-underline': (lambda s: (''.join(c + '\u0332' for c in s), 'underlined'), 'any'),
    'spaces-between-chars': (lambda s: (' '.join(s), 'spaced out'), 'any'),
    'dashes-between-chars': (lambda s: ('-'.join(s), 'ignore the dashes I added'), 'any'),
    'dots-between-chars': (lambda s: ('.'.join(s), 'without the dots'), 'any'),
    'groups-of-four': (lambda s: (' '.join(s[i:i + 4] for i in range(0, len(s), 4)), 'groups of 4'), 'any'),
    'line-break-every-8': (lambda s: ('\n'.join(s[i:i + 8] for i in range(0, len(s), 8)), 'split over lines'), 'any'),
    'swapped-case': (lambda s: (s.swapcase(), 'case inverted, flip it back'), 'any'),
    'interleaved-filler': (interleave, 'any'),
    'halves-swapped': (lambda s: (s[len(s) // 2:] + s[:len(s) // 2], f'halves swapped, move the first {len(s) - len(s) // 2} characters to the end'), 'any'),
    'blocks-reversed-order': (lambda s: (' '.join(reversed([s[i:i + 4] for i in range(0, len(s), 4)])), 'read the blocks right to left'), 'any'),
    'rtl-override': (lambda s: ('\u202e' + s[::-1] + '\u202c', 'displayed right-to-left'), 'any'),
    'unicode-tag-chars': (lambda s: (''.join(chr(0xE0000 + ord(c)) for c in s), 'see the hidden characters'), 'ascii'),
    'nbsp-groups': (lambda s: ('\u00a0'.join(s[i:i + 3] for i in range(0, len(s), 3)), 'groups'), 'any'),
    'ideographic-spaces': (lambda s: ('\u3000'.join(s), 'spaced'), 'any'),
    'braille': (lambda s: (braille(s), 'braille'), 'alnum'),
    'emoji-keycap-digits': (lambda s: (''.join(c + '\ufe0f\u20e3' for c in s), 'emoji'), 'digits'),
    'roman-numeral-digits': (lambda s: ('-'.join(ROMAN[int(c)] for c in s), 'one roman numeral per digit, N = 0'), 'digits'),
    'circled-digits': (lambda s: (''.join('⓪①②③④⑤⑥⑦⑧⑨'[int(c)] for c in s), 'circled'), 'digits'),
    'superscript-digits': (lambda s: (''.join('⁰¹²³⁴⁵⁶⁷⁸⁹'[int(c)] for c in s), 'tiny digits'), 'digits'),
    'shifted-number-row': (lambda s: (''.join(')!@#$%^&*('[int(c)] for c in s), 'typed with shift held (US keyboard)'), 'digits'),
    'phone-keypad-letters': (lambda s: (''.join(ch(KEYPAD[c]) if c in KEYPAD else c for c in s), 'letters on the phone keypad'), 'digits'),
    'digits-plus-one': (lambda s: (''.join(str((int(c) + 1) % 10) for c in s), 'every digit written one higher (9 became 0), subtract 1'), 'digits'),
    'digits-as-letters-a1': (lambda s: (''.join('JABCDEFGHI'[int(c)] for c in s), 'A=1 ... I=9, J=0'), 'digits'),
    'voice-double-triple': (lambda s: (voice_digits(s), 'read out'), 'digits'),
    'letter-o-for-zero-l-for-one': (lambda s: (s.replace('0', 'O').replace('1', 'l'), 'typed sloppily'), 'digits'),
}


def voice_digits(s):
    out, i = [], 0
    w = DIGW['en']
    while i < len(s):
        j = i
        while j < len(s) and s[j] == s[i]:
            j += 1
        n = j - i
        if n == 2:
            out.append('double ' + w[int(s[i])])
        elif n == 3:
            out.append('triple ' + w[int(s[i])])
        else:
            out += [w[int(s[i])]] * n
        i = j
    return ', '.join(out) if chance(0.5) else ' '.join(out)


def payload_for(ptype):
    if ptype == 'digits':
        return pers_payload(True) if chance(0.7) else card_payload()
    if ptype in ('alnum', 'morse'):
        return alnum_payload()
    if ptype == 'short':
        return any_payload(44)
    if ptype == 'ascii':
        return any_payload(60)
    return any_payload()


def present(label, enc, hint, show_hint):
    if '\n' in enc:
        return ch([f'{label} ({hint}):\n{enc}' if show_hint else f'{label}:\n{enc}',
                   f'{enc}\n^ that is the {label}' + (f' ({hint})' if show_hint else '')])
    forms = [f'{label} ({hint}): {enc}' if show_hint else f'{label}: {enc}',
             f'Saving this for later, {label} = {enc}' + (f'  [{hint}]' if show_hint else ''),
             f'{enc} <- {label}' + (f', {hint}' if show_hint else ''),
             f'Remember the {label}. ' + (f'I wrote it {hint}: ' if show_hint else 'Here: ') + enc]
    return ch(forms)


LETTER_TRANSFORMS = {'rot13', 'swapped-case', 'atbash', 'caesar-plus3', 'vigenere-keyed', 'cyrillic-homoglyphs', 'math-bold-letters'}
MUST_HINT = {'caesar-plus3', 'vigenere-keyed', 'xor-single-byte', 'swapped-case', 'interleaved-filler', 'halves-swapped',
             'blocks-reversed-order', 'digits-plus-one', 'digits-as-letters-a1', 'phone-keypad-letters', 'roman-numeral-digits',
             'shifted-number-row', 'nato-phonetic', 'atbash', 'rot47', 'morse', 'reversed-then-base64', 'base64-then-reversed',
             'dashes-between-chars', 'dots-between-chars', 'rot13', 'reversed'}


def make_transform_tech(name):
    fn, ptype = TRANSFORMS[name]

    def gen():
        kind, label, v = payload_for(ptype)
        while name == 'letter-o-for-zero-l-for-one' and not ('0' in v or '1' in v):
            kind, label, v = payload_for(ptype)
        while name in LETTER_TRANSFORMS and sum(c.isalpha() for c in v) < 4:
            kind, label, v = payload_for(ptype)
        if name == 'morse':
            v2 = v.upper()
            kind, label, v = (kind, label, v2) if kind in ('pin', 'door-code', 'alarm-code', 'garage-code', 'safe-code', 'otp', 'locker-code', 'keybox-code', 'puk') \
                else ('password', 'wifi password (all caps)', rs(UPP, 6) + rs(DIG, 4))
        enc, hint = fn(v)
        if name == 'morse':
            hint = 'morse'
        return kind, T(present(label, enc, hint, name in MUST_HINT or chance(0.55)))
    return gen


def make_digitword_tech(lang):
    def gen():
        kind, label, v = pers_payload(True) if chance(0.75) else card_payload()
        words = [DIGW[lang][int(c)] for c in v]
        sep = ch([' ', ', ', '-', ' '])
        enc = sep.join(words)
        hk = {'pin': 'pin', 'door-code': 'door', 'alarm-code': 'alarm', 'card-number': 'card'}.get(kind)
        if lang in LANGS and lang != 'en' and hk and chance(0.7):
            head = LANGS[lang][hk]
            txt = sub(head, v=enc, exp=expiry(), cvv=' '.join(DIGW[lang][int(c)] for c in rs(DIG, 3)))
            return kind, T(txt, lang)
        return kind, T(f'{label}: {enc}', lang if lang in LANGS else 'en')
    return gen


# ---------------------------------------------------------------- structural / markup / code / riddle techniques
def halves(v):
    h = len(v) // 2
    return v[:h], v[h:]


def nsplit(v, n):
    b = [round(i * len(v) / n) for i in range(n + 1)]
    return [v[b[i]:b[i + 1]] for i in range(n)]


def chunks(v, n):
    k = max(1, -(-len(v) // n))
    return [v[i:i + k] for i in range(0, len(v), k)]


def st_split_fields():
    kind, label, v = any_payload()
    a, b = halves(v)
    return kind, F({'what': label, 'part_1': a, 'part_2': b, 'note': 'concatenate part_1 and part_2'})


def st_prefix_body():
    kind, label, v = tok_payload()
    m = re.match(r'^([A-Za-z0-9]+[_\-.])', v)
    p = m.group(1) if m else v[:4]
    return kind, F({'service': label, 'prefix': p, 'body': v[len(p):]})


def st_list_chunks():
    kind, label, v = any_payload()
    return kind, L([f'{label}, in pieces:'] + [f'{i + 1}) {c}' for i, c in enumerate(chunks(v, R.randint(3, 5)))])


def st_split_messages():
    kind, label, v = any_payload()
    a, b = halves(v)
    return kind, M(chat([(0, f'sending the {label} in two parts so it is not in one message'), (0, a),
                         (1, 'ok got the first bit'), (0, ch([CHATTER[0], 'also are we still on for friday?'])), (0, b), (1, 'thanks, stitched it together')]))


def st_indexed_map():
    kind, label, v = any_payload()
    cs = chunks(v, R.randint(3, 5))
    idx = list(range(len(cs)))
    R.shuffle(idx)
    d = {'label': label, 'order': 'sort the pieces by number'}
    for i in idx:
        d[f'piece{i + 1}'] = cs[i]
    return kind, F(d)


def st_csv_columns():
    kind, label, v = any_payload()
    cs = nsplit(v, 3)
    return kind, T('name,c1,c2,c3\n' + f'{label.replace(",", " ")},' + ','.join(cs) + f'\nbirthday list,{ch(NAMES)},{ch(NAMES)},{ch(NAMES)}')


def st_ordinals_shuffled():
    kind, label, v = any_payload()
    cs = nsplit(v, 3)
    words = ['first', 'second', 'third']
    order = [2, 0, 1]
    return kind, T(f'{label}: ' + ' '.join(f'The {words[i]} part is "{cs[i]}".' for i in order))


def st_aws_pair_apart():
    kid, sec = 'AKIA' + rs(UPP + DIG, 16), rs(B64, 40)
    return 'aws-access-key', M(chat([(0, f'key id for the backup bucket: {kid}'), (1, 'and the other half?'),
                                      (0, ch(CHATTER)), (0, f'oh right, secret: {sec}'), (1, 'works, thx')]))


def st_chatter_between_lines():
    kind, label, v = any_payload()
    a, b = halves(v)
    return kind, L([f'{label} starts with {a}', ch(CHATTER), ch(CHATTER), f'...and ends with {b}'])


def st_half_b64_half_plain():
    kind, label, v = tok_payload()
    a, b = halves(v)
    return kind, T(f'{label}: first half {a}, second half base64 {b64s(b)}')


def st_interleave_two_lists():
    kind, label, v = any_payload()
    return kind, F({'label': label, 'even_positions': v[0::2], 'odd_positions': v[1::2],
                    'how': 'zip them: even[0], odd[0], even[1], ...'})


def st_json_stringified():
    kind, label, v = tok_payload()
    inner = json.dumps({'provider': label, 'auth': {'token': v}})
    return kind, T(json.dumps({'id': R.randint(100, 999), 'payload': inner}))


def st_yaml_continuation():
    kind, label, v = tok_payload()
    a, b = halves(v)
    return kind, T(f'# {label}\nintegration:\n  token: "{a}\\\n    {b}"\n  timeout: 30')


def st_deep_json():
    kind, label, v = tok_payload()
    d = {'x': v}
    for k in ['auth', 'v2', 'defaults', 'profiles', ch(['prod', 'main'])]:
        d = {k: d}
    return kind, F({'settings': json.dumps(d), 'comment': f'{label} lives under .x'})


def st_key_whole():
    kind, label, v = ch([('datadog-keys', 'Datadog API key', lambda: rs(HEXL, 32)), ('rails-master-key', 'Rails master.key', lambda: rs(HEXL, 32)),
                         ('rollbar-token', 'Rollbar token', lambda: rs(HEXL, 32)), ('mailgun-webhook-key', 'Mailgun signing key', lambda: rs(HEXL, 32)),
                         ('openweather-key', 'OpenWeather key', lambda: rs(HEXL, 32))])
    v = v()
    return kind, T(ch([f'The {label} is the hex part of this memory\'s key (after mem_).',
                       f'{label}: see key of this entry, drop the "mem_" prefix'])), {'key': 'mem_' + v}


def st_key_half():
    kind, label, v = ch([('slack-signing-secret', 'Slack signing secret'), ('airbrake-key', 'Airbrake project key'),
                         ('newsapi-key', 'NewsAPI key'), ('agora-certificate', 'Agora app certificate'),
                         ('spotify-client-secret', 'Spotify client secret'), ('facebook-app-secret', 'Facebook app secret')])[0], None, rs(HEXL, 32)
    label = kind.replace('-', ' ')
    a, b = v[:16], v[16:]
    return kind, T(f'{label}: {a} + the 16 hex chars in this memory\'s key'), {'key': 'mem_' + b}


def st_ns_element():
    kind, label, v = tok_payload(60)
    a, b = halves(v)
    if chance(0.5):
        return kind, T(f'{label}: starts with {a}, the rest is the last namespace segment'), {'ns3': b}
    return kind, T(f'{label}: it is the third namespace element of this memory'), {'ns3': v}


def code_concat(lang):
    def gen():
        kind, label, v = tok_payload()
        cs = chunks(v, R.randint(2, 4))
        if lang == 'python':
            body = f'# {label}\nTOKEN = ' + ' + '.join(f'"{c}"' for c in cs)
        elif lang == 'js-template':
            body = '\n'.join(f'const p{i} = "{c}";' for i, c in enumerate(cs)) + '\nconst token = `' + ''.join(f'${{p{i}}}' for i in range(len(cs))) + '`;'
        elif lang == 'shell':
            body = '\n'.join(f"P{i}='{c}'" for i, c in enumerate(cs)) + '\nexport TOKEN="' + ''.join(f'$P{i}' for i in range(len(cs))) + '"'
        elif lang == 'printf':
            body = "printf '" + '%s' * len(cs) + "' " + ' '.join(f"'{c}'" for c in cs) + ' > ~/.token'
        elif lang == 'array-join':
            body = 'const key = [' + ', '.join(f"'{c}'" for c in cs) + "].join('');"
        elif lang == 'c-macros':
            body = '\n'.join(f'#define K{i} "{c}"' for i, c in enumerate(cs)) + '\nconst char *api_key = ' + ' '.join(f'K{i}' for i in range(len(cs))) + ';'
        elif lang == 'excel':
            body = '=CONCAT(' + ';'.join(f'"{c}"' for c in cs) + ')'
        elif lang == 'sql-concat':
            body = "UPDATE settings SET value = " + ' || '.join(f"'{c}'" for c in cs) + " WHERE name = 'api_key';"
        elif lang == 'go-sprintf':
            body = 'token := fmt.Sprintf("' + '%s' * len(cs) + '", ' + ', '.join(f'"{c}"' for c in cs) + ')'
        else:
            body = 'val key = listOf(' + ', '.join(f'"{c}"' for c in cs) + ').joinToString("")'
        return kind, T(body)
    return gen


def code_transform(lang):
    def gen():
        kind, label, v = tok_payload()
        if lang == 'py-slice-reverse':
            body = f'API_KEY = "{v[::-1]}"[::-1]  # {label}'
        elif lang == 'js-atob':
            body = f'const apiKey = atob("{b64s(v)}"); // {label}'
        elif lang == 'go-byte-slice':
            body = 'key := string([]byte{' + ', '.join('0x%02x' % b for b in v.encode()) + '})'
        elif lang == 'py-bytes-fromhex':
            body = f'KEY = bytes.fromhex("{v.encode().hex()}").decode()'
        elif lang == 'shell-base64-d':
            body = f'export TOKEN=$(echo {b64s(v)} | base64 -d)'
        elif lang == 'powershell-frombase64':
            body = f'$k = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String("{b64s(v)}"))'
        elif lang == 'py-codecs-rot13':
            body = f'import codecs\nKEY = codecs.decode("{codecs.encode(v, "rot13")}", "rot13")'
        else:
            body = f'key = "".join(chr(c) for c in {[ord(c) for c in v]})'
        return kind, T(body)
    return gen


PERSONAL_OK = {'vcard-note', 'ical-description', 'markdown-table-cell', 'html-comment', 'css-content', 'latex-macro', 'filename',
               'markdown-link-title', 'notebook-cell'}


def markup(kind_):
    def gen():
        if kind_ in PERSONAL_OK:
            kind, label, v = any_payload()
        elif chance(0.75):
            kind, label, v = tok_payload()
        else:
            kind, label, v = pers_payload()
        if kind_ == 'wifi-qr-payload':
            kind, label, v = 'wifi-password', 'wifi password', human_pw()
        if kind_ == 'html-comment':
            body = f'<div class="footer">© {R.randint(2019, 2025)} Northwind</div>\n<!-- {label}: {v} -->'
        elif kind_ == 'html-hidden-input':
            body = f'<form action="/api/sync" method="post">\n  <input type="hidden" name="{ch(["token", "auth", "k"])}" value="{v}">\n  <button>Sync</button>\n</form>'
        elif kind_ == 'html-data-attribute':
            body = f'<button id="pay" data-{ch(["key", "cfg", "x"])}="{v}">Pay now</button>'
        elif kind_ == 'css-content':
            body = f'.debug::after {{ content: "{v}"; display: none; }}'
        elif kind_ == 'svg-desc':
            body = f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><desc>{v}</desc><circle cx="12" cy="12" r="10"/></svg>'
        elif kind_ == 'xml-cdata':
            body = f'<config>\n  <service name="sync">\n    <auth><![CDATA[{v}]]></auth>\n  </service>\n</config>'
        elif kind_ == 'markdown-link-title':
            body = f'See the [runbook](https://wiki.{ch(DOMAINS)}/runbook "{v}") before deploying.'
        elif kind_ == 'markdown-reference-def':
            body = f'Deployment notes are [here][1].\n\n[1]: https://wiki.{ch(DOMAINS)}/deploy?k={urlq(v)}'
        elif kind_ == 'markdown-table-cell':
            body = f'| item | value |\n|---|---|\n| owner | {ch(NAMES)} |\n| {label} | {v} |\n| renew | {date()} |'
        elif kind_ == 'latex-macro':
            body = f'\\newcommand{{\\apikey}}{{{v}}}\n\\section{{Setup}} Use \\texttt{{\\apikey}} in the config.'
        elif kind_ == 'protobuf-text':
            body = f'auth {{\n  method: BEARER\n  token: "{v}"\n}}'
        elif kind_ == 'graphql-variables':
            body = 'mutation Login($u: String!, $p: String!) { login(user: $u, password: $p) { id } }\n' + json.dumps({'u': ch(USERS), 'p': v})
        elif kind_ == 'ansible-inventory':
            body = f'[web]\n{fill("{ip}")} ansible_user={ch(USERS)} ansible_password={v}'
        elif kind_ == 'powershell-securestring':
            body = f'$pw = ConvertTo-SecureString "{v}" -AsPlainText -Force'
        elif kind_ == 'docker-run-env':
            body = f'docker run -d -e {ch(["API_TOKEN", "SECRET", "PASS"])}="{v}" -p 8080:80 ghcr.io/acme/api:latest'
        elif kind_ == 'kubectl-from-literal':
            body = f'kubectl create secret generic app-secrets --from-literal=token={v} -n prod'
        elif kind_ == 'gh-secret-set':
            body = f'gh secret set DEPLOY_TOKEN --body "{v}" --repo acme/api'
        elif kind_ == 'notebook-cell':
            body = json.dumps({'cell_type': 'code', 'execution_count': R.randint(1, 40), 'source': [f'client = Client("{v}")\n', 'client.list()']})
        elif kind_ == 'java-properties':
            body = f'app.name=orders\napp.{ch(["secret", "auth.token", "key"])}={v}\nserver.port=8080'
        elif kind_ == 'xml-appsettings':
            body = f'<appSettings>\n  <add key="Environment" value="Production" />\n  <add key="ApiKey" value="{v}" />\n</appSettings>'
        elif kind_ == 'hcl-heredoc':
            body = f'locals {{\n  bootstrap = <<-EOT\n    {v}\n  EOT\n}}'
        elif kind_ == 'dockerfile-arg':
            body = f'FROM node:20-alpine\nARG NPM_AUTH={v}\nRUN npm ci && npm run build'
        elif kind_ == 'makefile-var':
            body = f'DEPLOY_KEY := {v}\n\ndeploy:\n\t./scripts/deploy.sh $(DEPLOY_KEY)'
        elif kind_ == 'crontab-line':
            body = f'0 3 * * * curl -fsS -H "X-Token: {v}" https://backup.{ch(DOMAINS)}/run >/dev/null'
        elif kind_ == 'systemd-environment':
            body = f'[Service]\nExecStart=/usr/local/bin/agent\nEnvironment="AGENT_SECRET={v}"\nRestart=always'
        elif kind_ == 'nginx-header':
            body = f'location /api/ {{\n    proxy_pass http://backend;\n    proxy_set_header Authorization "Bearer {v}";\n}}'
        elif kind_ == 'htaccess-setenv':
            body = f'SetEnv APP_SECRET "{v}"\nRewriteEngine On'
        elif kind_ == 'data-uri':
            body = f'data:text/plain;base64,{b64s(v)}'
        elif kind_ == 'vcard-note':
            body = f'BEGIN:VCARD\nVERSION:3.0\nFN:{ch(NAMES)} {ch(SURNAMES)}\nTEL:{phone()}\nNOTE:{label} {v}\nEND:VCARD'
        elif kind_ == 'ical-description':
            body = f'BEGIN:VEVENT\nSUMMARY:Server migration\nDTSTART:{date().replace("-", "")}T090000Z\nDESCRIPTION:use {label} {v}\nEND:VEVENT'
        elif kind_ == 'email-custom-header':
            body = f'Received: from mx.{ch(DOMAINS)}\nX-Api-Key: {v}\nSubject: nightly export\n\nExport attached.'
        elif kind_ == 'git-commit-message':
            body = f'commit {rs(HEXL, 40)}\nAuthor: {ch(NAMES)} <{email()}>\n\n    fix sync job, temporarily hardcode {label} {v}'
        elif kind_ == 'unified-diff':
            body = f'--- a/.env\n+++ b/.env\n@@ -3,2 +3,2 @@\n-SECRET=changeme\n+SECRET={v}\n LOG_LEVEL=info'
        elif kind_ == 'regex-literal':
            body = f'if (!/^{re.escape(v)}$/.test(input)) throw new Error("bad {label}");'
        elif kind_ == 'filename':
            body = '\n'.join(R.sample([f'notes_{date()}.txt', 'invoice_0042.pdf', f'backup_{v}.zip', 'IMG_2231.jpg', 'cv_final_v3.docx'], 5))
        elif kind_ == 'query-string':
            body = f'https://app.{ch(DOMAINS)}/export?format=csv&{ch(["api_key", "token", "access_token", "pw"])}={urlq(v)}&lang=en'
        elif kind_ == 'url-fragment':
            body = f'https://app.{ch(DOMAINS)}/callback#access_token={urlq(v)}&token_type=bearer&expires_in=3600'
        elif kind_ == 'log-mask-failed':
            body = f'[{date()} {hm()}] INFO login user={ch(USERS)} secret=******\n[{date()} {hm()}] DEBUG retry with secret={v}\n[{date()} {hm()}] INFO ok'
        elif kind_ == 'sql-insert':
            body = f"INSERT INTO credentials (name, value) VALUES ('{label}', '{v}');"
        elif kind_ == 'sql-comment':
            body = f'SELECT id, email FROM users WHERE active = 1; -- {label}: {v}'
        elif kind_ == 'python-comment':
            body = f'def connect():\n    # TODO remove before commit: {v}\n    return Client(os.environ["TOKEN"])'
        elif kind_ == 'cookie-header-crowd':
            body = f'Cookie: _ga=GA1.2.{rs(DIG, 9)}.{rs(DIG, 10)}; theme=dark; {ch(["sessionid", "sid", "auth_token"])}={urlq(v)}; lang=en; _gid=GA1.2.{rs(DIG, 8)}'
        elif kind_ == 'wifi-qr-payload':
            body = f'WIFI:T:WPA;S:{ch(SSIDS)};P:{v};;'
        else:
            body = f'otpauth://totp/{label.replace(" ", "%20")}:{ch(USERS)}?secret={rs(B32, 32)}&issuer=Acme'
            kind = 'totp-seed'
        return kind, T(body)
    return gen


def urlq(s):
    return ''.join(c if c.isalnum() or c in '-_.~' else '%%%02X' % ord(c) for c in s) if all(ord(c) < 128 for c in s) else s


RIDDLE_YEARS = [('the year of the first Moon landing', '1969'), ('the year the Berlin Wall fell', '1989'),
                ('the year the Titanic sank', '1912'), ('the year the Second World War ended', '1945'),
                ('the year of the storming of the Bastille', '1789'), ("the year of Columbus's first voyage", '1492'),
                ('the year euro cash was introduced', '2002'), ('the year of the first football World Cup', '1930'),
                ('the year the Eiffel Tower opened', '1889'), ('the year the Soviet Union dissolved', '1991'),
                ('the year of the Chernobyl disaster', '1986'), ('the year Shakespeare was born', '1564'),
                ('the year Einstein was born', '1879'), ('the year Mozart was born', '1756')]
CONSTS = [('the first four digits of pi', '3141'), ('the first four digits of e', '2718'), ('the first four digits of the square root of two', '1414'),
          ('the first four digits of the golden ratio', '1618'), ('pi to five decimals without the dot', '314159'),
          ('the boiling point of water in Fahrenheit, twice', '212212'), ('the number of days in a leap year', '366')]


def rd_year():
    clue, v = ch(RIDDLE_YEARS)
    what = ch(['garage code', 'PIN for the bike lock', 'alarm code', 'door code', 'safe code'])
    return 'pin' if 'PIN' in what else what.replace(' ', '-').replace('bike-lock', 'pin'), T(f'{what}: {clue}. Easy to remember, no need to write the digits.')


def rd_const():
    clue, v = ch(CONSTS)
    return 'door-code', T(f'New keypad code at the studio = {clue}.')


def rd_arith():
    a, b = R.randint(12, 99), R.randint(12, 99)
    return 'pin', T(f'Card PIN hint that is really the PIN: {a} × {b} (just multiply, it is {len(str(a * b))} digits)')


def rd_capital_year():
    cap = ch([('the capital of Australia', 'Canberra'), ('the capital of Canada', 'Ottawa'), ('the capital of Norway', 'Oslo'),
              ('the capital of Kenya', 'Nairobi'), ('the capital of Peru', 'Lima'), ('the capital of Japan', 'Tokyo')])
    yr = ch(RIDDLE_YEARS)
    sym = ch(['!', '#', '?', '*'])
    return 'password', T(f'Wifi password = {cap[0]} (capitalised) followed by {yr[0]} and then "{sym}". Guests always ask.')


def rd_date_in_record():
    nm = ch(NAMES)
    d, m, y = R.randint(1, 28), R.randint(1, 12), R.randint(1990, 2018)
    return 'alarm-code', T(f'{nm} was born on {d:02d}.{m:02d}.{y}. The alarm code is her birthday as DDMM.')


def rd_phone_in_record():
    ph = phone()
    return 'keybox-code', T(f"Landlord's number is {ph}. The key box code is the last four digits of that number.")


def rd_pet_built():
    pet, n, s = ch(PETS), R.randint(1, 199), ch(['!', '?', '#'])
    return 'wifi-password', T(f'The wifi password is our dog\'s name, {pet}, then our house number {n}, then "{s}" - no spaces.')


def rd_legs():
    animals = [('a spider', '8'), ('a cat', '4'), ('a bird', '2'), ('a snake', '0'), ('an ant', '6'), ('a starfish', '5')]
    pick = [ch(animals) for _ in range(4)]
    return 'locker-code', T('Locker code: count the legs of ' + ', '.join(a for a, _ in pick) + ' (one digit each, in that order).')


def rd_calendar():
    months = [('January', '31'), ('February (normal year)', '28'), ('April', '30'), ('June', '30'), ('September', '30'), ('December', '31'), ('March', '31')]
    pick = [ch(months) for _ in range(3)]
    return 'safe-code', T(f'{ch(["Safe", "Bike lock", "Suitcase lock"])} combination: days in ' + ', then days in '.join(m for m, _ in pick) + '.')


def rd_famous_numbers():
    return ch(['garage-code', 'door-code', 'locker-code']), T(ch(['Garage code: James Bond\'s agent number followed by Michael Jordan\'s jersey number.',
                                'Garage code is the Beatles\' "When I\'m ..." age, twice.',
                                'Gate code = the emergency number in Europe followed by the one in the US.',
                                'Code: the number of players in a football team, then in a basketball team.',
                                'Padlock: Route 66, then the number of the beast.',
                                'Code = boiling point of water in Celsius followed by the freezing point in Fahrenheit.',
                                f'Door code = {ch(NAMES)}\'s favourite: the year of the Moon landing, reversed.']) + f' ({ch(CHATTER)})')


def pw_correction():
    kind, label, v = pers_payload()
    wrong = v.lower()
    return kind, T(f'{label} is {wrong} - wait, sorry, it is case-sensitive: {v}')


def pw_spelled_letters():
    kind, label, v = pers_payload()
    names = {'!': 'exclamation mark', '#': 'hash', '$': 'dollar', '-': 'dash', '.': 'dot', '?': 'question mark', '*': 'star',
             '_': 'underscore', '@': 'at sign', '%': 'percent', '&': 'ampersand', '+': 'plus', '=': 'equals', '^': 'caret', '~': 'tilde'}
    parts = [(f'capital {c}' if c.isupper() else c) if c.isalpha() else DIGW['en'][int(c)] if c.isdigit() else names.get(c, c) for c in v]
    return kind, T(f'[voice transcript] okay the {label}, I will spell it: ' + ', '.join(parts) + '. Got it? Great, see you at dinner.')


def pw_described():
    pet, yr, s = ch(PETS), R.randint(1970, 2020), ch(['!', '#', '*'])
    return 'password', T(f'My {ch(SERVICES)} password is just our first cat\'s name {pet}, then {yr} (the year we got her), then {s} at the end.')


def pw_hint_literal():
    kind, label, v = pers_payload()
    return kind, T(f'Password hint for future me (very subtle): it is literally "{v}"')


def pw_old_and_new():
    kind, label, v = pers_payload()
    return kind, T(f'{label}: not {human_pw()} any more (that one is dead) - the current one is {v}')


def acrostic():
    v = human_pw()
    while not re.fullmatch(r'[A-Za-z0-9]{6,14}', v):
        v = ch(PETS) + rs(DIG, 3)
    lines = [f'{c}{ch(["... remember ", " - ", ": "])}{ch(CHATTER).lower()}' if not c.isdigit() else f'{c} {ch(["apples", "tickets", "boxes", "chairs"])} for the party' for c in v]
    return 'password', L(['laptop password = first character of each line:'] + lines)


def first_letters():
    v = ch(WORDS) + ch(WORDS)
    words = {c: [w for w in WORDS + BIP if w.startswith(c)] for c in set(v)}
    sentence = ' '.join(ch(words[c]) if words[c] else c for c in v)
    return 'password', T(f'Hint that is really the router password: take the first letter of each word -> "{sentence}"')


def card_split_fields():
    kind, label, num = card_payload()
    return kind, F({'g1': num[:4], 'g2': num[4:8], 'g3': num[8:12], 'g4': num[12:], 'exp': expiry(), 'cvc': rs(DIG, 3), 'note': 'groups in order'})


def card_messages():
    kind, label, num = card_payload()
    g = [num[i:i + 4] for i in range(0, len(num), 4)]
    return kind, M(chat([(0, 'card for the hotel, sending in bits')] + [(0, x) for x in g] + [(0, f'exp {expiry()} cvv {rs(DIG, 3)}'), (1, 'booked!')]))


def card_dotted():
    kind, label, num = card_payload()
    return kind, T(f'{label}: ' + '.'.join(num) + f' / {expiry()}')


def card_reversed():
    kind, label, num = card_payload()
    return kind, T(f'{label} (written backwards so nobody reads it): {num[::-1]}, exp {expiry()}, cvv {rs(DIG, 3)}')


def card_words_mixed():
    kind, label, num = card_payload()
    langs = R.sample(list(DIGW), 3)
    return kind, T(f'{label}: ' + ' '.join(DIGW[langs[i % 3]][int(c)] for i, c in enumerate(num)) + ' (digits in three languages)')


COMBO_ENC = {'b64': lambda s: b64s(s), 'hex': lambda s: s.encode().hex(), 'rot13': lambda s: codecs.encode(s, 'rot13'),
             'reversed': lambda s: s[::-1], 'urlenc': lambda s: ''.join('%%%02X' % b for b in s.encode()),
             'charcodes': lambda s: ','.join(str(ord(c)) for c in s)}


def combo(enc, where):
    def gen():
        kind, label, v = any_payload()
        while enc == 'rot13' and sum(c.isalpha() for c in v) < 4:
            kind, label, v = any_payload()
        e = COMBO_ENC[enc](v)
        if where == 'html-comment':
            body = f'<p>Welcome back!</p>\n<!-- {enc}: {e} -->'
        elif where == 'json-field':
            body = json.dumps({'name': label, 'encoding': enc, 'data': e, 'updated': date()})
        elif where == 'query-string':
            body = f'https://status.{ch(DOMAINS)}/hook?src=cron&{enc}={urlq(e)}'
        elif where == 'code-comment':
            body = f'// {label} ({enc}) {e}\nfunction init() {{ return load(); }}'
        else:
            a, b = halves(e)
            return kind, M(chat([(0, f'{label}, {enc}, part 1: {a}'), (1, 'ok'), (0, f'part 2: {b}')]))
        return kind, T(body)
    return gen


TECHS = []
for _n in TRANSFORMS:
    TECHS.append((_n, make_transform_tech(_n)))
for _l in DIGW:
    TECHS.append((f'spelled-digits-{_l}', make_digitword_tech(_l)))
for _n, _f in [('split-fields-halves', st_split_fields), ('split-prefix-body', st_prefix_body), ('split-list-chunks', st_list_chunks),
               ('split-across-messages', st_split_messages), ('split-indexed-shuffled-map', st_indexed_map),
               ('split-csv-columns', st_csv_columns), ('split-ordinals-shuffled', st_ordinals_shuffled),
               ('aws-id-and-secret-apart', st_aws_pair_apart), ('split-with-chatter-between', st_chatter_between_lines),
               ('half-plain-half-base64', st_half_b64_half_plain), ('even-odd-positions', st_interleave_two_lists),
               ('json-stringified-nested', st_json_stringified), ('yaml-line-continuation', st_yaml_continuation),
               ('deep-nested-json-string', st_deep_json)]:
    TECHS.append((_n, _f))
for _l in ['python', 'js-template', 'shell', 'printf', 'array-join', 'c-macros', 'excel', 'sql-concat', 'go-sprintf', 'kotlin-join']:
    TECHS.append((f'code-concat-{_l}', code_concat(_l)))
for _l in ['py-slice-reverse', 'js-atob', 'go-byte-slice', 'py-bytes-fromhex', 'shell-base64-d', 'powershell-frombase64',
           'py-codecs-rot13', 'py-chr-list']:
    TECHS.append((f'code-decode-{_l}', code_transform(_l)))
for _k in ['html-comment', 'html-hidden-input', 'html-data-attribute', 'css-content', 'svg-desc', 'xml-cdata', 'markdown-link-title',
           'markdown-reference-def', 'markdown-table-cell', 'latex-macro', 'protobuf-text', 'graphql-variables', 'ansible-inventory',
           'powershell-securestring', 'docker-run-env', 'kubectl-from-literal', 'gh-secret-set', 'notebook-cell', 'java-properties',
           'xml-appsettings', 'hcl-heredoc', 'dockerfile-arg', 'makefile-var', 'crontab-line', 'systemd-environment', 'nginx-header',
           'htaccess-setenv', 'data-uri', 'vcard-note', 'ical-description', 'email-custom-header', 'git-commit-message',
           'unified-diff', 'regex-literal', 'filename', 'query-string', 'url-fragment', 'log-mask-failed', 'sql-insert',
           'sql-comment', 'python-comment', 'cookie-header-crowd', 'wifi-qr-payload', 'otpauth-uri']:
    TECHS.append((f'hidden-{_k}', markup(_k)))
for _n, _f in [('riddle-historic-year', rd_year), ('riddle-math-constant', rd_const), ('riddle-arithmetic', rd_arith),
               ('riddle-capital-plus-year', rd_capital_year), ('derive-from-birthday-in-record', rd_date_in_record),
               ('derive-from-phone-in-record', rd_phone_in_record), ('password-built-from-description', rd_pet_built),
               ('riddle-animal-legs', rd_legs), ('riddle-calendar-days', rd_calendar), ('riddle-famous-numbers', rd_famous_numbers),
               ('case-correction-afterthought', pw_correction), ('spelled-letter-by-letter', pw_spelled_letters),
               ('password-described-in-words', pw_described), ('hint-that-is-the-password', pw_hint_literal),
               ('old-and-new-password', pw_old_and_new), ('acrostic-lines', acrostic), ('first-letters-of-words', first_letters),
               ('card-split-fields', card_split_fields), ('card-split-messages', card_messages), ('card-dotted', card_dotted),
               ('card-reversed', card_reversed), ('card-digits-three-languages', card_words_mixed)]:
    TECHS.append((_n, _f))
for _e in COMBO_ENC:
    for _w in ['html-comment', 'json-field', 'query-string', 'code-comment', 'chat-split']:
        TECHS.append((f'{_e}-in-{_w}', combo(_e, _w)))
KEY_TECHS = [('secret-is-memory-key', st_key_whole, 6), ('half-in-memory-key', st_key_half, 6), ('in-namespace-element', st_ns_element, 6)]


# ---------------------------------------------------------------- benign look-alike families
def colonfp(n=32):
    return ':'.join(rs('0123456789ABCDEF', 2) for _ in range(n))


def sops_yaml():
    return (f'db_password: ENC[AES256_GCM,data:{rs(B64, 24)},iv:{rs(B64, 43)}=,tag:{rs(B64, 22)}==,type:str]\n'
            f'api_token: ENC[AES256_GCM,data:{rs(B64, 56)},iv:{rs(B64, 43)}=,tag:{rs(B64, 22)}==,type:str]\nsops:\n'
            f'    kms:\n        - arn: arn:aws:kms:{ch(REGIONS)}:{rs(DIG, 12)}:key/{uuid4()}\n    lastmodified: "{date()}T10:12:00Z"\n'
            f'    mac: ENC[AES256_GCM,data:{rs(B64, 60)},iv:{rs(B64, 43)}=,tag:{rs(B64, 22)}==,type:str]\n    version: 3.8.1')


def sealed_secret():
    return ('apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: app-secrets\n  namespace: prod\nspec:\n'
            f'  encryptedData:\n    DATABASE_PASSWORD: AgB{rs(B64, 320)}==\n    API_TOKEN: AgC{rs(B64, 200)}=')


def ansible_vault():
    return '$ANSIBLE_VAULT;1.1;AES256\n' + '\n'.join(rs(HEXL, 80) for _ in range(R.randint(4, 8)))


def pgp_msg():
    return '-----BEGIN PGP MESSAGE-----\n\nhQEMA' + rs(B64, 59) + '\n' + '\n'.join(rs(B64, 64) for _ in range(R.randint(3, 7))) + '\n=' + rs(B64, 4) + '\n-----END PGP MESSAGE-----'


def age_msg():
    return '-----BEGIN AGE ENCRYPTED FILE-----\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSB' + rs(B64, 21) + '\n' + '\n'.join(rs(B64, 64) for _ in range(R.randint(2, 5))) + '\n-----END AGE ENCRYPTED FILE-----'


def csr():
    return pem('CERTIFICATE REQUEST', 'MIICijCCAXICAQAwRTELMAkGA1UEBhMC', R.randint(6, 10) * 64)


SPECIAL.update({'colonfp': colonfp, 'sops': sops_yaml, 'sealed': sealed_secret, 'ansiblevault': ansible_vault,
                'pgpmsg': pgp_msg, 'agemsg': age_msg, 'csr': csr,
                'bcrypt': lambda: '$2b$12$' + rs('./' + ALN, 53),
                'ulid': lambda: '01' + rs('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 24),
                'hexcolor': lambda: '#' + rs(HEXL, 6), 'lastfour': lambda: rs(DIG, 4),
                'testcard': lambda: ch(['4242 4242 4242 4242', '4111 1111 1111 1111', '5555 5555 5555 4444', '3782 822463 10005',
                                        '6011 1111 1111 1117', '4000 0566 5566 5556', '5105 1051 0510 5100', '3530 1113 3330 0000'])})

BENIGN_SPEC = r"""
sha256-checksum¦sha256sum {file}: {h64}¦Verified the download of {file}, SHA-256 {h64} matches the one on the website.¦checksums.txt:\n{h64}  {file}\n{h64}  {file}
md5-checksum¦MD5 of {file} is {h32} - same as the vendor page.¦md5: {h32}
sha1-checksum¦SHA1({file})= {h40}¦Firmware SHA-1 {h40}, flashed OK on {date}.
sha512-checksum¦sha512 of the release tarball: {h128}
blake2-checksum¦b2sum {file}\n{h128}  {file}
crc32-checksum¦CRC32 of the firmware image: 0x{H8} (bootloader checks it)¦zip listing says CRC {h8} for {file}
uuid-request-id¦Support asked for the request id: {uuid}¦Error page showed "Reference: {uuid}" - mention it if I call them again.¦correlation-id: {uuid}
git-commit-sha¦The regression came in with commit {h40} (merged {date}).¦git bisect says first bad commit is {h40}
git-short-sha¦Deployed {h7} to staging; rollback target is {h7}.¦Release notes v{semver} ({h7})
docker-image-digest¦image: ghcr.io/acme/api@sha256:{h64}¦Pinned base image to python@sha256:{h64} for reproducible builds.
w3c-traceparent¦traceparent: 00-{h32}-{h16}-01¦Slow checkout trace {h32}, span {h16}, 2.3 s in the DB call.
aws-request-id¦x-amz-request-id: {u16}\nx-amz-id-2: {b76}=¦S3 returned 403 with RequestId {u16}, HostId {b60}=
aws-arn¦Role to assume: arn:aws:iam::{acct}:role/{word}-deployer¦Topic ARN arn:aws:sns:{region}:{acct}:order-events
aws-account-id¦Our prod AWS account is {acct} (alias acme-prod), staging is {acct}.
aws-doc-example-key¦Example from the AWS docs (not real): AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY - use your own for the {word} bucket.¦The {word} tutorial uses the documented placeholder key AKIAIOSFODNN7EXAMPLE, replace it with your own before {date}.¦Docs sample for region {region}: aws_access_key_id = AKIAIOSFODNN7EXAMPLE (the official example value)
stripe-publishable-key¦Stripe publishable key for the checkout page (public, safe in frontend): pk_live_51{a97}¦STRIPE_PUBLISHABLE_KEY=pk_live_51{a97}
stripe-test-card¦Stripe test card {testcard}, any future expiry, any CVC - test mode only.¦For QA use the published test number {testcard} (test mode).
stripe-object-ids¦Refund for charge ch_{a24}, customer cus_{a14}, payment intent pi_{a24}.¦Dispute on invoice in_{a24} (customer cus_{a14})
stripe-price-ids¦price_{a24} is the monthly plan, price_{a24} the yearly one, product prod_{a14}.
recaptcha-site-key¦reCAPTCHA site key (public, goes in the HTML): 6L{s38}¦<div class="g-recaptcha" data-sitekey="6L{s38}"></div>
mapbox-public-token¦Mapbox public token for the tiles (pk = public, URL-restricted): pk.eyJ1Ijoi{b60}.{w22}
algolia-search-only-key¦Algolia app id {u10}, search-only key {h32} - that one is meant for the browser.
posthog-project-key¦PostHog project API key (public, used by posthog-js): phc_{a43}
google-oauth-client-id¦OAuth client ID (not secret): {d12}-{l32}.apps.googleusercontent.com
azure-tenant-ids¦Azure tenant {uuid}, subscription {uuid}, resource group rg-prod-weu.
github-app-ids¦GitHub App ID {d6}, installation id {d8}, webhook URL https://ci.{domain}/gh
slack-channel-id¦Post alerts to channel C{u10} (#ops-alerts), workspace T{u8}.
discord-user-id¦My Discord user id is {d18}, server id {d18}.
telegram-chat-id¦The family group chat_id is -100{d10}.
openai-org-id¦OpenAI organization id (not a key): org-{a24}, project proj_{a24}
vendor-request-ids¦Anthropic request id req_{a24} for the support ticket.¦Twilio message SID SM{h32} delivered.
ssh-public-key¦Add this to authorized_keys on the NAS:\n{sshpub}¦My public key: {sshpub}
pgp-public-key¦My PGP public key, feel free to share:\n{pgppub}
x509-certificate¦Root CA for the office proxy:\n{cert}
public-key-pem¦Webhook signature verification public key:\n{pubpem}
certificate-request¦CSR for the new domain:\n{csr}
ssh-host-fingerprint¦Server says: ED25519 key fingerprint is SHA256:{b43}. Matches what the admin sent.
tls-cert-fingerprint¦SHA-256 fingerprint of the cert: {colonfp}
gpg-fingerprint¦Key fingerprint = {H4} {H4} {H4} {H4} {H4}  {H4} {H4} {H4} {H4} {H4}
age-recipient¦age recipient (public): age1{e58}
wireguard-public-key¦[Peer]\nPublicKey = {b42}A=\nAllowedIPs = 10.0.0.{num}/32\nEndpoint = vpn.{domain}:51820
bitcoin-address¦Send the BTC refund to {btc}¦Donations: {btc}
ethereum-address¦My ETH address for the payout: {eth}¦ENS points to {eth}
xpub-watch-only¦Watch-only wallet for the accountant: xpub661MyMwAqRbc{m95}
solana-address¦SOL deposit address: {m44}
monero-address¦XMR address for the donation button: 4{m94}
iban-for-payment¦Please transfer the rent to {iban} ({surname}), reference "{word} May".¦Bank details for the invoice: IBAN {iban}, BIC {C4}{C2}{u2}
card-last-four¦The Visa ending in {lastfour} expires {exp}, update Netflix billing.¦Charged to Mastercard ****{lastfour}
card-expiry-only¦Card expires {exp}, order the replacement in time.
masked-card¦Receipt: VISA **** **** **** {lastfour}, approved, auth code {u6}
redacted-token¦Old config had sk_live_****************{a4} (redacted in the ticket).¦GITHUB_TOKEN=ghp_********************************{a4}
redacted-log¦Authorization: Bearer [REDACTED]\nX-Api-Key: [FILTERED]¦password=<redacted> user={user} status=ok
placeholder-angle¦OPENAI_API_KEY=<your-api-key-here>  # {word} service, {name} fills it in¦Replace <STRIPE_SECRET_KEY> and <DB_PASSWORD> before running the {word} script.¦Template for {name}: API_TOKEN=<paste token>, REGION={region}
placeholder-ci-expression¦token: ${{ secrets.GITHUB_TOKEN }}  # {word} workflow¦password: "{{ vault_{db}_password }}"¦api_key = "${var.{word}_api_key}"¦env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  NODE_VERSION: {num}
env-var-names-only¦Required env vars for {word}-api: STRIPE_SECRET_KEY, DATABASE_URL, REDIS_URL (values are in Vault).¦export OPENAI_API_KEY=   # fill in locally, never commit ({name})¦The {word} job needs SENTRY_AUTH_TOKEN and SLACK_WEBHOOK_URL set in the CI settings.
k8s-secretkeyref¦env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {word}-db-credentials\n        key: password¦envFrom:\n  - secretRef:\n      name: {word}-secrets\n  - configMapRef:\n      name: {word}-config
vault-path-reference¦vault kv get -field=token secret/prod/{word}¦Secrets live at secret/data/apps/{word}/prod in Vault.
secrets-manager-arn¦arn:aws:secretsmanager:{region}:{acct}:secret:prod/db-{a6}
sops-encrypted-file¦{sops}
sealed-secret¦{sealed}
ansible-vault-blob¦group_vars/prod/vault.yml:\n{ansiblevault}
pgp-encrypted-message¦{pgpmsg}
age-encrypted-file¦{agemsg}
bcrypt-hash-fixture¦Test fixture user hash: {bcrypt}
argon2-hash-fixture¦$argon2id$v=19$m=65536,t=3,p=4${b22}${b43}
password-policy¦Password rules at {word} corp: at least {d1}2 characters, one number, one symbol, no reuse of the last {d1}.¦Company policy since {date}: passphrases of 4+ words are fine, rotation only after a breach.¦{svc} now requires 2FA and a password of at least {num} characters.
pin-policy¦PIN must be 4-6 digits, no sequences like 1234 or repeated digits ({bank} rules).¦New {bank} cards ship with a random PIN; you can change it at any ATM after {date}.
talk-about-password¦I keep forgetting my {svc} password, need to reset it again.¦{name} says the {svc} password is the one we agreed on last week - I'll ask her in person.
password-reset-notice¦Reset link for {svc} expired, request a new one tomorrow.¦Got a "password changed" email from {svc} at {time} - that was me.
pin-statistics¦Fun fact: 1234 is the most common 4-digit PIN (~11%), then 1111 and 0000.¦Only about 0.0{d2}% of people pick 8068 as a PIN, according to that DataGenetics study.
door-code-no-value¦The door code changes on the 1st; ask the concierge ({name}) for the new one.¦Door code for the {city} flat is on the laminated card in the kitchen drawer.¦{name} will text me the new gate code on {date}.
password-manager-reference¦Wifi password is in 1Password under "{word} network".¦{bank} login is in Bitwarden (folder Finance), don't write it anywhere else.¦{svc} password: see the family vault, entry "{word}".
hint-not-recoverable¦Password hint: the usual one with the year we met ({name} knows).¦PIN hint for the {bank} card: same as the old card.¦{svc}: the one with the {word} and the number only I know.
product-sku¦SKU {C3}-{d5}-{C2}, colour {word}, size M¦Replacement filter part no. {u4}-{d4}
isbn-number¦Book club pick: ISBN {isbn}¦Ordered ISBN {isbn} and {isbn} for the kids.
vin-number¦Car VIN {vin} (for the insurance form)
imei-number¦Phone IMEI {imei} - needed if it gets stolen.
mac-address¦Printer MAC {mac}, reserve 192.168.1.{num} for it in the router.
serial-number¦Dishwasher serial S/N {u12}, bought {date}.¦Laptop serial {u10}, warranty until {date}.
order-number¦Amazon order #{d3}-{d7}-{d7}, arrives Thursday.¦Zalando order {d10} - return the blue shoes.
tracking-number¦DHL tracking {d10}, UPS 1Z{u16}¦Parcel tracking number {C2}{d9}DE
policy-number¦Home insurance policy HH-{d8}, renews {date}.¦Travel insurance policy no. {u3}{d9}
member-number¦Library card no. {d14}¦Frequent flyer number {d9} (Miles&More)
passport-number¦Passport {C2}{d7}, expires {date}.¦ID card number {u9}, issued in {city}.
tax-id¦Steuer-ID {d11}¦NIF {d9} for the invoice.
coordinates¦Campsite at 46.{d6}, 7.{d6}¦Parking spot: 38.{d5} N, 9.{d5} W
sports-score¦Final score 3-1, goals at 12', 67' and 88'.¦We lost 87-92 in overtime, {name} scored 24.
math-constant¦pi ≈ 3.14159265358979, e ≈ 2.71828182845904 - {name}'s homework on {date}¦Golden ratio 1.6180339887; {name} needs it for the {word} drawing.
math-homework¦Homework check: {d2} × {d2} = ?, 2^16 = 65536, 7! = 5040 ({name})¦sqrt({num}) to three decimals for {name}'s worksheet, due {date}.
chemistry¦CAS 7732-18-5 is water; caffeine is C8H10N4O2, molar mass 194.19 g/mol. Quiz on {date}.¦Avogadro: 6.02214076e23 mol^-1; {name} mixes up molarity and molality.
version-string¦Upgraded to v{semver} (build {d5}).¦node v{semver}, npm {semver}, python 3.{num}
build-id¦Build #{d4} - artifact id {h12}, pipeline {d8}¦CI run {d10} finished in 14m
base64-png-datauri¦<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk{b20}AAAAASUVORK5CYII=">
spf-record¦TXT @ "v=spf1 include:_spf.google.com include:sendgrid.net ~all" for {domain}¦{domain} TXT "v=spf1 ip4:{ip} -all"
dkim-public-record¦selector1._domainkey TXT "v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ{b150}"
site-verification-txt¦TXT google-site-verification={w43}¦TXT MS=ms{d8}
analytics-cookies¦Cookie: _ga=GA1.2.{d9}.{d10}; theme=dark; lang=en; cookie_consent=accepted
etag-header¦ETag: W/"{h32}"¦If-None-Match: "{h40}"
sri-hash¦<script src="https://cdn.example.com/lib.js" integrity="sha384-{b64}" crossorigin="anonymous"></script>
npm-lock-integrity¦"resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",\n"integrity": "sha512-{b86}=="
pip-hash¦requests==2.32.3 --hash=sha256:{h64}
go-sum-line¦golang.org/x/net v0.{num}.0 h1:{b43}=
container-id¦docker ps: {h12}  postgres:16  Up 3 days¦Container {h64} exited with code 137 (OOM).
pod-uid¦Pod api-7d9f{l5} uid {uuid} restarted 4 times.
ec2-ids¦Instance i-0{h16} (AMI ami-0{h16}) in subnet-0{h16}
mongo-objectid¦Document _id ObjectId("{h24}") is the duplicated order.
ulid-id¦Event id {ulid} processed twice.
tweet-id¦Saved tweet https://x.com/{word}/status/{d19}
youtube-id¦Recipe video: https://youtu.be/{w11}
doi-arxiv¦Paper: doi:10.{d4}/{l8}.{d4}, also arXiv:{d4}.{d5}
ip-and-cidr¦Office public IP {ip}, VPN range 10.{num}.0.0/16
eth-tx-hash¦Tx 0x{h64} confirmed in block {d8}.
btc-txid¦Bitcoin txid {h64}, 3 confirmations.
block-hash¦Block hash 000000000000000000{h46}
ipfs-cid¦Pinned the photos to IPFS: bafybei{l52}¦CID Qm{m44}
magnet-link¦magnet:?xt=urn:btih:{h40}&dn=ubuntu-24.04-desktop-amd64.iso
hex-colors¦Palette: {hexcolor}, {hexcolor}, {hexcolor}, {hexcolor}
wifi-ssid-only¦Guest network is "{word}-guest", password is on the fridge.¦The cafe wifi is open (no password), SSID Cafe{word}.
default-password-talk¦Router still had the default admin password, changed it on {date} (new one not noted here).¦The {word} camera shipped with a default login; {name} reset it during setup.
twofa-instructions¦Scan the QR code in the {svc} authenticator screen, then type the 6-digit code it shows.¦2FA for {svc}: use the YubiKey first, SMS only as fallback.
recovery-codes-location¦{svc} backup codes printed on {date} and stored in the fireproof box in the study.¦Recovery sheet for the {word} wallet is with {name}'s lawyer, sealed envelope.
seed-phrase-advice¦Never type your 12 or 24 recovery words into a website - no real support will ask. ({name} almost fell for it on {date})¦Reminder for {name}: a seed phrase belongs on paper or steel, not in a screenshot.
bip39-trivia¦The BIP-39 English list has 2048 words; the first is "abandon", the last is "zoo". ({name} asked on {date})¦A 12-word mnemonic encodes 128 bits of entropy plus a 4-bit checksum - explained it to {name}.
jwt-io-example¦jwt.io example token (documentation sample, secret "your-256-bit-secret"), used in the {word} workshop: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c
jwt-header-decoded¦eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9 is just base64 of {"alg":"RS256","typ":"JWT"} - the header, no signature ({name}'s question).¦eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9 decodes to {"typ":"JWT","alg":"HS256"}; every HS256 token starts like that. Noted {date}.
decoded-claims-only¦Decoded ID token claims: {"sub": "{d9}", "aud": "{d12}-app", "email_verified": true, "exp": 17{d8}}
doc-placeholder-connstring¦From the {word} README template: postgres://user:password@localhost:5432/mydb (replace with your own).¦Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;  <- connectionstrings.com sample for {name}
localhost-connstring-nopass¦DATABASE_URL=postgres://localhost:5432/dev_{db}¦REDIS_URL=redis://localhost:6379/{d1}¦MONGO_URL=mongodb://127.0.0.1:27017/{db}_test
ssh-command¦ssh {user}@{ip} -p 2222 -i ~/.ssh/id_ed25519¦Jump host: ssh -J bastion.{domain} app-1
git-remote¦git remote add origin git@github.com:acme/{word}.git¦Clone from https://github.com/acme/{word}.git
api-endpoint-docs¦POST https://api.stripe.com/v1/refunds with charge id and amount ({name} asked).¦GET /v2/orders?status=open&page={d1}¦PATCH /api/{word}/{d5} updates the record
curl-no-auth¦curl -s https://api.github.com/repos/acme/{word}/releases/latest | jq .tag_name¦curl -I https://{domain}
ci-log-masked¦[build {d1}/7] Using API_KEY=***\n[build {d1}/7] Using DB_PASSWORD=***\nTests: {num} passed¦Run echo "$TOKEN" -> *** (job {d8})
stack-trace-no-secret¦Traceback (most recent call last):\n  File "{word}.py", line {num}, in main\n    total = sum(items) / len(items)\nZeroDivisionError: division by zero¦java.lang.NullPointerException: Cannot invoke "String.length()" because "{word}" is null\n\tat com.acme.{word}.Parser.parse(Parser.java:{num})
rotation-ticket¦[{C3}-{d4}] Rotate the Stripe key before {date} - new key goes straight into Vault, do not paste it in this ticket.
doc-example-totp¦Google Authenticator docs use the example secret JBSWY3DPEHPK3PXP - it's only a sample, {name} used it in the {word} demo.
doc-example-webhook¦Slack docs sample URL (placeholder): https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX - real one is in Vault ({word} channel).
doc-example-github-token¦Format example from the docs: ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx (placeholder, 36 x's) for the {word} guide.
truncated-key-placeholder¦-----BEGIN RSA PRIVATE KEY-----\n...key omitted, it is on the {word} USB stick...\n-----END RSA PRIVATE KEY-----¦id_ed25519 for the {word} server: not stored here, {name} has it on the YubiKey.
promo-code¦Promo code SUMMER{d2} gives 20% off at the garden centre.¦Public discount code WELCOME10 for new customers.
referral-code¦My referral code is {C4}{d4} - share it, we both get a free month.
lottery-numbers¦My lottery numbers: {d1}, 1{d1}, 2{d1}, 3{d1}, 4{d1} + bonus {d1}
locker-number-no-code¦Gym locker #{num}, I use my own padlock with a key.
flight-seat¦Flight LH{d4} on {date}, seat {num}C, gate B{d2}.
meter-reading¦Electricity meter {d6} kWh, gas {d5} m3 on {date}.
receive-account-details¦Sort code {d2}-{d2}-{d2}, account {d8} - for the deposit refund to me.¦Routing 0{d8}, account {d10} (direct deposit form).
gift-card-balance¦Gift card balance EUR {d2}.{d2} left (card ending {lastfour}).
unix-timestamps¦epoch 17{d8} = some time in 2024/25, used in the logs.
clsid-guid¦Registry key HKCR\CLSID\{{uuid}} belongs to the shell extension.
error-codes¦Windows update failed with 0x8007{H4} on {date}.¦HTTP 429 from the {word} API means we are being rate limited.
stock-isin¦ISIN US0378331005 (Apple), bought {d1} shares on {date}.¦ISIN DE000{u7} in the {bank} depot.
ean-barcode¦EAN 40{d11} for the oat milk the kids like.
icd-codes¦Diagnosis code J45.909 on {name}'s insurance form ({date}).¦ICD-10 {C1}{d2}.{d1} on the sick note.
blood-pressure¦BP this morning 1{d2}/{d2}, pulse {d2}.
chess-fen¦Position from {name}'s game: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1¦{name} won in {d2} moves with the Sicilian.
sudoku-grid¦Sudoku row check ({date}): 534678912 672195348 198342567¦Sudoku solution row {d1}: {d9}
iccid-sim¦SIM ICCID 8949{d15} (printed on the card, for the eSIM transfer)
hexdump-header¦First bytes of {file}: 89 50 4E 47 0D 0A 1A 0A - so it is a PNG.¦xxd header: 25 50 44 46 2D 31 2E 37 (%PDF-1.7) for {file}
commit-message-rotation¦chore: rotate leaked key, new one only in Vault (old one revoked {date})
sha256-of-empty¦sha256 of empty string is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 - that's why {file} hash looked odd.
uuid-nil¦Nil UUID 00000000-0000-0000-0000-000000000000 means "not set" in the {word} table.
random-nonce-csp¦Content-Security-Policy: script-src 'nonce-{b22}=' 'strict-dynamic'
session-expired-log¦[{date} {time}] session {h8}... expired, user logged out (ids truncated)
license-plate¦Our car plate is {C2}-{C2} {d4}.
postal-code¦Postcode for the new flat: {d5}; grandma's is {C2}{d1} {d1}{C2}.
otp-setup-talk¦{bank} will text me a one-time code when I log in; never share those codes.¦{svc} sends the login code by e-mail now, not SMS (since {date}).
""".strip()

BENIGN_FAMILIES = []
for _line in BENIGN_SPEC.split('\n'):
    _p = _line.split('¦')
    BENIGN_FAMILIES.append((_p[0], [t.replace('\\n', '\n') for t in _p[1:]]))


def fam_tpl(tpls):
    def gen():
        s = fill(ch(tpls))
        if len(s) < 110 and chance(0.4):
            s += ch(['\n', ' ', '\n\n']) + fill(ch(tpls))
        return T(s)
    return gen


HARMLESS = ['hello world', 'see you at the lake on Sunday', 'happy birthday mum', 'milk eggs bread', 'the cake is in the oven',
            'meeting moved to 3pm', 'call grandma', 'I love pancakes', 'dont forget the umbrella', 'train leaves at 8']


def fam_enc(name):
    def gen():
        s = ch(HARMLESS)
        enc = {'base64-harmless': b64s, 'hex-harmless': lambda x: x.encode().hex(), 'rot13-harmless': lambda x: codecs.encode(x, 'rot13'),
               'reversed-harmless': lambda x: x[::-1], 'charcodes-harmless': lambda x: ' '.join(str(ord(c)) for c in x),
               'url-encoded-harmless': lambda x: ''.join(c if c.isalnum() else '%%%02X' % ord(c) for c in x),
               'binary-harmless': lambda x: ' '.join(format(b, '08b') for b in x.encode()),
               'morse-harmless': lambda x: ' / '.join(' '.join(MORSE[c.upper()] for c in w if c.upper() in MORSE) for w in x.split()),
               'fullwidth-harmless': lambda x: ''.join(chr(ord(c) + 0xFEE0) if '!' <= c <= '~' else c for c in x),
               'zero-width-harmless': lambda x: '\u200b'.join(x.split(' ')),
               'homoglyph-harmless': lambda x: ''.join(HOMO.get(c, c) for c in x),
               'spaced-letters-harmless': lambda x: ' '.join(x.replace(' ', '')),
               'base32-harmless': lambda x: base64.b32encode(x.encode()).decode(),
               'zlib-harmless': lambda x: base64.b64encode(zlib.compress(x.encode(), 9)).decode()}[name](s)
        return T(ch([f'{enc}', f'Decoded this from a puzzle: {enc} -> "{s}"', f'Kids sent me a secret message: {enc} (it says "{s}")',
                     f'{enc}']))
    return gen


def fam_nato_name():
    n = ch(SURNAMES + NAMES)
    sp = ' '.join(NATO[c.upper()] if c.upper() in NATO else c for c in n)
    return T(f'Booking under the name {n}, spelled for the phone: {sp}')


def fam_spelled_phone(lang):
    def gen():
        ph = '0' + rs(DIG, 9)
        words = ' '.join(DIGW[lang][int(c)] for c in ph)
        return T(f'{ch(NAMES)}: {words} ({ph})', lang if lang in LANGS else 'en')
    return gen


def fam_address_fields():
    return F({'name': f'{ch(NAMES)} {ch(SURNAMES)}', 'street': address().split(',')[0], 'city': ch(CITIES), 'phone': phone(), 'email': email()})


def fam_code_env_read():
    var = ch(['STRIPE_SECRET_KEY', 'GITHUB_TOKEN', 'DB_PASSWORD', 'OPENAI_API_KEY', 'SENDGRID_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'SLACK_BOT_TOKEN'])
    return T(ch([f'api_key = os.environ["{var}"]\nclient = {ch(WORDS)}.Client(api_key)',
                 f'const token = process.env.{var};\nif (!token) throw new Error("{var} missing");',
                 f'password := os.Getenv("{var}")  // {ch(WORDS)} service', f'String key = System.getenv("{var}");',
                 f'{ch(WORDS)}_key = ENV.fetch("{var}")', f'$secret = getenv(\'{var}\');']))


def fam_regex_rules():
    return T(ch(['Detector rule: ghp_[A-Za-z0-9]{36} matches classic GitHub tokens.',
                 '[[rules]]\nid = "aws-access-key"\nregex = \'\'\'(A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}\'\'\'',
                 'Stripe live keys look like sk_live_ followed by 24+ alphanumerics; the pattern is sk_live_[0-9a-zA-Z]{24,}.',
                 'Slack bot tokens start with xoxb-, user tokens with xoxp-, app tokens with xapp-.',
                 'GitLab personal tokens: glpat-[0-9a-zA-Z_-]{20}', 'npm tokens match npm_[A-Za-z0-9]{36}',
                 'OpenAI keys start with sk-proj- these days; regex sk-(proj-)?[A-Za-z0-9_-]{20,}']) + f' (notes for the {ch(WORDS)} scanner, {date()})')


def fam_diff_version():
    return T(f'--- a/package.json\n+++ b/package.json\n@@ -4,3 +4,3 @@\n-  "version": "{fill("{semver}")}",\n+  "version": "{fill("{semver}")}",\n   "private": true')


def fam_html_todo():
    return T(f'<nav>\n  <a href="/{ch(WORDS)}">{ch(WORDS).title()}</a>\n  <!-- TODO({ch(NAMES).lower()}): add the {ch(["pricing", "blog", "about", "careers", "faq"])} link after {date()} -->\n</nav>')


def fam_query_utm():
    return T(f'https://shop.{ch(DOMAINS)}/product/{R.randint(100, 9999)}?utm_source=newsletter&utm_medium=email&utm_campaign={ch(WORDS)}_{R.randint(2023, 2025)}&ref={rs(LOW, 6)}')


def fam_config_clean(kind_):
    def gen():
        w, n = ch(WORDS), R.randint(2, 16)
        if kind_ == 'env-file-no-secrets':
            return T('\n'.join(R.sample(DECOY_ENV, R.randint(3, 7))))
        if kind_ == 'yaml-config-no-secrets':
            return T(f'server:\n  port: {R.randint(3000, 9000)}\n  workers: {n}\nlogging:\n  level: {ch(["info", "debug", "warn"])}\ndatabase:\n  host: {ch(HOSTS)}\n  pool: {n * 2}\n  password_from: vault:{w}/db')
        if kind_ == 'docker-compose-no-secrets':
            return T(f'services:\n  {w}:\n    image: nginx:{fill("{semver}")}\n    ports:\n      - "{R.randint(3000, 9000)}:80"\n    env_file: .env  # not committed')
        if kind_ == 'k8s-configmap':
            return T(f'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {w}-config\ndata:\n  LOG_LEVEL: {ch(["info", "debug"])}\n  FEATURE_{w.upper()}: "true"\n  REPLICAS: "{n}"\n  API_BASE: https://api.internal')
        if kind_ == 'terraform-no-secrets':
            return T(f'resource "aws_s3_bucket" "{w}" {{\n  bucket = "{w}-logs-{rs(DIG, 4)}"\n  tags = {{ team = "{ch(["platform", "data", "web"])}" }}\n}}')
        if kind_ == 'crontab-no-secrets':
            return T(f'{R.randint(0, 59)} {R.randint(0, 23)} * * * /usr/local/bin/{w}.sh --target /mnt/nas >> /var/log/{w}.log 2>&1')
        if kind_ == 'nginx-no-secrets':
            return T(f'server {{\n    listen 443 ssl;\n    server_name {w}.{ch(DOMAINS)};\n    ssl_certificate /etc/ssl/{w}.crt;\n    ssl_certificate_key /etc/ssl/private/{w}.key;\n}}')
        if kind_ == 'systemd-no-secrets':
            return T(f'[Service]\nExecStart=/usr/bin/node /srv/{w}/index.js\nEnvironmentFile=/etc/{w}/env\nRestart=on-failure\nRestartSec={n}')
        if kind_ == 'dockerfile-no-secrets':
            return T(f'FROM python:3.{R.randint(9, 13)}-slim\nWORKDIR /{w}\nCOPY requirements.txt .\nRUN pip install -r requirements.txt\nCMD ["gunicorn", "{w}:app"]')
        if kind_ == 'http-request-no-auth':
            return T(f'GET /v1/weather?city={ch(CITIES)} HTTP/1.1\nHost: api.open-meteo.com\nAccept: application/json')
        return T(f'[{ch(["OPS", "WEB"])}-{R.randint(100, 999)}] Login page shows a 500 after the {fill("{semver}")} deploy. Logs attached, no credentials included.')
    return gen


def fam_ml(key):
    def gen():
        lang = ch(NON_EN + ['en'])
        return T(lphrase(lang, key), lang)
    return gen


def fam_vcard():
    return T(f'BEGIN:VCARD\nVERSION:3.0\nFN:{ch(NAMES)} {ch(SURNAMES)}\nTEL;TYPE=cell:{phone()}\nEMAIL:{email()}\nNOTE:met at the {ch(["conference", "school fair", "climbing gym"])}\nEND:VCARD')


def fam_ical():
    return T(f'BEGIN:VEVENT\nSUMMARY:{ch(["Dentist", "Parent evening", "Flight to " + ch(CITIES)])}\nDTSTART:{date().replace("-", "")}T{R.randint(8, 18):02d}0000\nLOCATION:{ch(CITIES)}\nEND:VEVENT')


def fam_email_headers():
    return T(f'Message-ID: <{rs(HEXL, 16)}.{rs(DIG, 10)}@mail.{ch(DOMAINS)}>\nDKIM-Signature: v=1; a=rsa-sha256; d={ch(DOMAINS)}; s=s1; b={rs(B64, 120)}=\nSubject: Your order has shipped')


def fam_wifi_qr_open():
    return T(f'WIFI:T:nopass;S:{ch(["Cafe", "Library", "Hotel"])}{ch(WORDS).title()}Guest;;')


def fam_recipe():
    return T(f'Banana bread: 3 ripe bananas, 250 g flour, 2 eggs, 100 g butter, bake at 175°C for {R.randint(45, 60)} min.')


def fam_chat_2fa():
    return M(chat([(0, 'the bank app wants a code again'), (1, "it's the one from the SMS, don't tell it to anyone who calls you"), (0, 'ok done, logged in')]))


for _n in ['base64-harmless', 'hex-harmless', 'rot13-harmless', 'reversed-harmless', 'charcodes-harmless', 'url-encoded-harmless',
           'binary-harmless', 'morse-harmless', 'fullwidth-harmless', 'zero-width-harmless', 'homoglyph-harmless',
           'spaced-letters-harmless', 'base32-harmless', 'zlib-harmless']:
    BENIGN_FAMILIES.append((_n, fam_enc(_n)))
for _l in ['en', 'de', 'fr', 'es', 'it', 'pl', 'ru', 'ja', 'tr', 'nl']:
    BENIGN_FAMILIES.append((f'spelled-phone-number-{_l}', fam_spelled_phone(_l)))
for _n, _f in [('nato-spelled-name', fam_nato_name), ('address-split-fields', fam_address_fields), ('code-reads-env-var', fam_code_env_read),
               ('detector-regex-rules', fam_regex_rules), ('diff-version-bump', fam_diff_version), ('html-comment-todo', fam_html_todo),
               ('query-string-utm', fam_query_utm), ('vcard-contact', fam_vcard), ('ical-event', fam_ical), ('email-headers-dkim', fam_email_headers),
               ('wifi-qr-open-network', fam_wifi_qr_open), ('recipe-numbers', fam_recipe), ('chat-about-2fa', fam_chat_2fa)]:
    BENIGN_FAMILIES.append((_n, _f))
for _k in ['env-file-no-secrets', 'yaml-config-no-secrets', 'docker-compose-no-secrets', 'k8s-configmap', 'terraform-no-secrets',
           'crontab-no-secrets', 'nginx-no-secrets', 'systemd-no-secrets', 'dockerfile-no-secrets', 'http-request-no-auth', 'ticket-no-secrets']:
    BENIGN_FAMILIES.append((_k, fam_config_clean(_k)))
for _k, _n in [('changed', 'password-change-talk-multilingual'), ('policy', 'pin-policy-multilingual')]:
    BENIGN_FAMILIES.append((_n, fam_ml(_k)))


# ---------------------------------------------------------------- ordinary (benign/plain) memories
ORD_EN = {
    'notes': ['Dentist moved to {date} at {time}.', 'Call {name} about the {word} project before Friday.',
              'Passport renewal: bring two photos and the old passport ({C2}{d7}).', 'Boiler service booked for {date}, technician arrives 8-12.',
              'Return the library books by {date}; fine is 20 cents a day.', 'Winter tyres are in the basement, left corner.',
              'Spare house key is with {name} next door.', 'Note to self: back up the photos to the external drive this weekend.'],
    'health': ['Ibuprofen 400 mg max three times a day; {name} is allergic to penicillin.', 'Blood test on {date}: cholesterol 5.1, vitamin D a bit low.',
               'Physio exercises: 3x10 squats, 2x30 s plank, stretch hamstrings daily.', 'Blood pressure {d3}/8{d1}, doctor says keep walking 30 min a day.',
               'Next vaccination for {name}: {date} at the paediatrician.', 'Eye test result: -1.25 left, -1.5 right, new glasses ordered.'],
    'family': ["{name}'s birthday is on {date}, she wants a {word} kite.", 'School pickup Tuesdays and Thursdays is {name}.',
               "Grandma's address: {address}", "{name} starts swimming lessons on {date}, bring goggles.", 'Family dinner at our place on Sunday, {name} brings dessert.'],
    'travel': ['Flight {C2}{d4} {city} to {city} on {date}, departs {time}.', 'Hotel in {city}: {address}, check-in from 15:00.',
               'Rental car pickup at the airport desk, bring the driving licence.', 'Train to {city} at {time}, coach 7, seats 45 and 46.',
               'Visa for the trip: apply at least 3 weeks before {date}.', 'Packing: adapters, sunscreen, the blue backpack, passports.'],
    'work': ['1:1 with {name} every other Thursday at {time}.', 'Q3 goals: reduce churn to 3%, ship the {word} feature.',
             'Expense report due {date}; receipts are in the shared folder.', 'Offsite in {city} on {date}, agenda from {name}.',
             'Reminder: performance review self-assessment due {date}.', 'New team member {name} {surname} starts Monday, desk 4.12.'],
    'shopping': ['Buy: {word}, oat milk, AA batteries, dishwasher tabs.', 'Hardware store: wall plugs 6 mm, white silicone, 2 light bulbs E27.',
                 "Gift ideas for {name}: a {word} book, running socks, the board game she mentioned.", 'IKEA: KALLAX insert x2, 3 photo frames.'],
    'hobby': ['Climbing gym: project the green V4 in the cave.', 'Guitar: practise the F barre chord 10 minutes a day.',
              'Sourdough: feed the starter at 8pm, 1:1:1 ratio.', 'Running plan: 5 km easy Tue, intervals Thu, long run Sun ({d2} km).',
              'Garden: plant the garlic before the first frost.', 'Book club reads "{word} of the {word}" next month.'],
    'contacts': ['{name} {surname}: {phone}, {email}', 'Plumber ({surname}): {phone}', 'Vet clinic: {phone}, open until 19:00.',
                 "{name}'s new email: {email}"],
    'sms': ['SMS from {name}: running 10 min late, order me a flat white', 'SMS from {name} ({date}): landed, taking the train now',
            'SMS: Your parcel {C2}{d9} will be delivered tomorrow between 10:00 and 14:00.', 'SMS from pharmacy: your prescription is ready for pickup.'],
    'voice-transcript': ['[voice memo 0:{d2}] okay, remind me to book the vet for {pet} next week, and, uh, buy lightbulbs.',
                         '[voice memo 1:{d2}] so the plan for Saturday is market in the morning, then {name} comes over around four.',
                         '[transcript] note for the trip: the ferry leaves at {time}, we need to be there forty minutes before.'],
}


def ord_form():
    return ch([lambda: F({'name': f'{ch(NAMES)} {ch(SURNAMES)}', 'email': email(), 'phone': phone(), 'address': address(), 'birthday': date()}),
               lambda: F({'document': 'passport', 'number': f'{rs(UPP, 2)}{rs(DIG, 7)}', 'nationality': ch(['DE', 'PT', 'FR', 'PL', 'IT']), 'expires': date()}),
               lambda: F({'order_id': f'{rs(DIG, 3)}-{rs(DIG, 7)}-{rs(DIG, 7)}', 'carrier': ch(['DHL', 'UPS', 'GLS']), 'tracking': rs(DIG, 12), 'status': 'in transit'}),
               lambda: F({'device': ch(['Pixel 8', 'iPhone 15', 'Galaxy S23']), 'imei': imei(), 'serial': rs(UPP + DIG, 11), 'bought': date()}),
               lambda: F({'vehicle': ch(['Skoda Octavia 2019', 'Toyota Yaris 2021', 'VW Golf 2017']), 'vin': vin(), 'plate': f'{rs(UPP, 2)}-{rs(UPP, 2)} {rs(DIG, 4)}', 'next_service': date()}),
               lambda: F({'policy': f'HH-{rs(DIG, 8)}', 'insurer': ch(['Allianz', 'AXA', 'Generali']), 'renewal': date(), 'premium': f'{R.randint(90, 600)} EUR/year'}),
               lambda: F({'book': ch(['Dune', 'Middlemarch', 'The Overstory', 'Piranesi']), 'isbn': isbn13(), 'lent_to': ch(NAMES), 'since': date()}),
               lambda: F({'member': f'{ch(NAMES)} {ch(SURNAMES)}', 'club': ch(['climbing gym', 'library', 'swim club']), 'member_no': rs(DIG, 8), 'valid_until': date()})])()


def ord_chat():
    convs = [[(0, 'can you pick up the kids today?'), (1, 'yes, 4:30 ok?'), (0, 'perfect, thanks ❤️')],
             [(0, 'dinner tonight?'), (1, 'thai or pizza'), (0, 'thai!! order the green curry'), (1, 'ok 7:30')],
             [(0, f'{ch(NAMES)} has a fever, staying home'), (1, 'oh no, need anything from the pharmacy?'), (0, 'paracetamol syrup pls')],
             [(0, 'flight delayed 2h'), (1, 'ugh, text me when you land'), (0, 'will do')],
             [(0, 'what was the name of that restaurant in Porto?'), (1, 'Cantinho do Avillez'), (0, 'thanks, booking it for June')],
             [(0, 'reminder: parents evening thursday 6pm'), (1, 'in the calendar 👍')],
             [(0, f'my new number is {phone()}'), (1, 'saved!')],
             [(0, 'did you send the rent?'), (1, 'yes this morning'), (0, 'great')]]
    return M(chat(ch(convs)))


def ord_email():
    a, b = R.sample(NAMES, 2)
    return T(f'Subject: {ch(["Summer plans", "Saturday", "Photos from the wedding", "School trip"])}\n\nHi {a},\n\n'
             f'{ch(CHATTER)} {ch(CHATTER)} We were thinking of {ch(CITIES)} in {ch(["June", "August", "October"])} - '
             f'{ch(["would you join?", "any tips?", "the kids are excited."])}\n\n{ch(["Love", "Best", "Cheers"])},\n{b}')


def ord_calendar():
    return L([f'{date()} {hm()} {ch(["Dentist", "Yoga", "Parents evening", "Flight to " + ch(CITIES), "Dinner with " + ch(NAMES), "Car service", "Team offsite"])}'
              for _ in range(R.randint(3, 8))])


def ord_long():
    city = ch(CITIES)
    lines = [f'Trip to {city} ({date()} - {date()})']
    for d in range(R.randint(4, 9)):
        lines.append(f'Day {d + 1}: {ch(["museum in the morning", "hike to the viewpoint", "market + cooking class", "day trip by train", "beach", "old town walking tour"])}, '
                     f'{ch(["dinner at the harbour", "early night", "tapas with " + ch(NAMES), "concert at 20:00"])}. {ch(CHATTER)}')
    lines.append(f'Emergency contact: {ch(NAMES)} {phone()}')
    return T('\n'.join(lines))


def ord_ml(lang):
    key = ch(['appt', 'bday', 'phone', 'shop'])
    form = ch(['notes', 'notes', 'chat', 'prose'])
    if form == 'chat':
        return 'chat', M(chat([(0, lphrase(lang, key)), (1, ch(['👍', 'ok', '❤️', '🙏']))]), lang)
    if form == 'prose':
        return 'prose', T(f'{lphrase(lang, key)}. {lphrase(lang, ch(["appt", "bday", "shop"]))}.', lang)
    return 'notes', T(lphrase(lang, key), lang)


def ordinary():
    r = R.random()
    if r < 0.38:
        src = ch(list(ORD_EN))
        txt = fill(ch(ORD_EN[src]))
        if chance(0.7):
            txt += ch([' ', '\n']) + fill(ch(ORD_EN[ch([src, ch(list(ORD_EN))])]))
        return src, T(txt)
    if r < 0.50:
        return 'form', ord_form()
    if r < 0.62:
        return 'chat', ord_chat()
    if r < 0.68:
        return 'email', ord_email()
    if r < 0.73:
        return 'calendar', ord_calendar()
    if r < 0.77:
        return 'itinerary', ord_long()
    return ord_ml(ch(NON_EN))


# ---------------------------------------------------------------- shaping and wrappers
def clen(c):
    t, v = c['t'], c['v']
    if t == 'text':
        return len(v)
    if t == 'lines':
        return sum(len(x) + 1 for x in v)
    if t == 'msgs':
        return sum(len(x[2]) + 12 for x in v)
    return len(json.dumps(v, ensure_ascii=False))


def wrap(c):
    n = clen(c)
    p = 0.45 if n < 80 else 0.32 if n < 200 else 0.2 if n < 600 else 0.1
    if not chance(p):
        return c, 'none'
    lang = c['lang']
    t, v = c['t'], c['v']
    if t == 'text':
        w = ch(['note-date', 'greeting', 'chatter-after', 'chatter-before', 'remember', 'datestamp'])
        if w == 'note-date':
            v = f'{LANGS[lang]["note"] if lang in LANGS and chance(0.6) else "Note to self"} ({date()}): {v}'
        elif w == 'greeting':
            v = f'{ch(["Hi! Please remember this:", "Hey, can you keep this for me?", "Save this please:", "Hello - store this for later:"])} {v}'
        elif w == 'chatter-after':
            v = f'{v}\n\n{ch(["Also:", "Unrelated:", "PS:"])} {chatter(lang)}'
        elif w == 'chatter-before':
            v = f'{chatter(lang)}\n{v}'
        elif w == 'remember':
            v = f'Remember: {v}'
        else:
            v = f'[{date()} {hm()}] {v}'
        return dict(c, v=v), w
    if t == 'lines':
        v = list(v)
        if chance(0.5):
            v.insert(R.randint(0, len(v)), chatter(lang))
            return dict(c, v=v), 'chatter-line'
        return dict(c, v=[f'Note to self ({date()})'] + v), 'note-date'
    if t == 'msgs':
        v = list(v)
        who = ch(NAMES)
        if chance(0.5):
            v.insert(0, (who, hm(), chatter(lang)))
        else:
            v.append((who, hm(), chatter(lang)))
        return dict(c, v=v), 'chatter-message'
    v = dict(v)
    if chance(0.5):
        v['also'] = chatter(lang)
        return dict(c, v=v), 'chatter-field'
    v['saved'] = date()
    return dict(c, v=v), 'date-field'


def longify(c):
    """Label-independent bundling of many unrelated everyday lines into one long memory."""
    lang = c['lang']
    n = max(6, min(24, (1150 - clen(c)) // 45)) if c['t'] != 'msgs' else max(6, min(13, (900 - clen(c)) // 80))
    extra = [chatter(lang) for _ in range(n)]
    t, v = c['t'], c['v']
    if t == 'text':
        k = R.randint(0, n)
        parts = ['- ' + x for x in extra[:k]] + [v] + ['- ' + x for x in extra[k:]]
        return dict(c, v=f'Daily log {date()}:\n' + '\n'.join(parts))
    if t == 'lines':
        v = list(v)
        for x in extra:
            v.insert(R.randint(0, len(v)), x)
        return dict(c, v=v)
    if t == 'msgs':
        v = list(v)
        people = [m[0] for m in v] + [ch(NAMES)]
        for x in extra:
            v.insert(R.randint(0, len(v)), (ch(people), hm(), x))
        return dict(c, v=v)
    v = dict(v)
    v['log'] = ' | '.join(extra)
    return dict(c, v=v)


def obj_wrap(s):
    r = R.random()
    if r < 0.35:
        return {'text': s}
    if r < 0.65:
        return {'note': s, 'tags': R.sample(TAGS, R.randint(1, 3))}
    if r < 0.85:
        return {'content': s, 'source': ch(['chat', 'note', 'voice', 'email', 'import', 'web']), 'created_at': f'{date()}T{hm()}:00Z'}
    return {'memory': s, 'importance': R.randint(1, 5)}


def arr_from_text(s):
    if '\n' in s:
        return [x for x in s.split('\n') if x.strip()]
    parts = re.split(r'(?<=[.!?])\s+(?=[A-Z\[])', s)
    if len(parts) >= 2:
        return parts
    return [s] if chance(0.5) else [s, ch(CHATTER)]


def msg_text(m):
    return f'[{m[1]}] {m[0]}: {m[2]}'


def to_value(c):
    t, v = c['t'], c['v']
    r = R.random()
    if t == 'text':
        if r < 0.78:
            return v
        if r < 0.945:
            return obj_wrap(v)
        return arr_from_text(v)
    if t == 'lines':
        if r < 0.50:
            return '\n'.join(v)
        if r < 0.86:
            return list(v)
        return ch([{'lines': list(v)}, {'items': list(v), 'tags': R.sample(TAGS, 1)}])
    if t == 'msgs':
        if r < 0.50:
            return '\n'.join(msg_text(m) for m in v)
        if r < 0.72:
            return [{'from': m[0], 'at': m[1], 'text': m[2]} for m in v]
        if r < 0.90:
            return [f'{m[0]}: {m[2]}' for m in v]
        return {'chat': [{'from': m[0], 'text': m[2]} for m in v], 'channel': ch(['whatsapp', 'signal', 'sms', 'telegram', 'slack'])}
    if r < 0.72:
        return dict(v)
    if r < 0.93:
        return '\n'.join(f'{k}: {x}' for k, x in v.items())
    return [f'{k}: {x}' for k, x in v.items()]


def shape_of(v):
    return 'string' if isinstance(v, str) else 'object' if isinstance(v, dict) else 'array'


def vlen(v):
    return len(v) if isinstance(v, str) else len(json.dumps(v, ensure_ascii=False))


def band(n):
    return '<40' if n < 40 else '40-99' if n < 100 else '100-299' if n < 300 else '300-799' if n < 800 else '800+'


# ---------------------------------------------------------------- assembly
ITEMS = []
MULTILINE_OK = ['env-file', 'yaml', 'json', 'toml', 'k8s-manifest', 'code-python', 'shell', 'notes', 'email', 'ticket', 'form',
                'terraform', 'code-javascript', 'docker-compose', 'chat']
LANG_FORMS = ['notes', 'chat', 'form', 'prose']


SEEN = set()


def item(label, variant, segment, kind, content, lang=None, extra=None):
    k = json.dumps(content['v'], ensure_ascii=False, sort_keys=True)
    if k in SEEN:
        return False
    SEEN.add(k)
    ITEMS.append({'label': label, 'variant': variant, 'segment': segment, 'kind': kind, 'content': content,
                  'lang': lang or content.get('lang', 'en'), 'extra': extra or {}})
    return True


def repeat(fn, tries=40):
    for _ in range(tries):
        if fn():
            return True
    return False


def gen_vendor(spec):
    kind, svc, vals = make_vendor(spec)
    multi = any('\n' in v for _, v in vals) or sum(len(v) for _, v in vals) > 400
    if chance(0.16):
        lang = ch(NON_EN)
        seg = f'{ch(LANG_FORMS)}-{lang}'
    else:
        lang = 'en'
        seg = ch(MULTILINE_OK if multi else list(CONTAINERS))
    c = render_kv(seg, svc, vals, lang)
    return item('secret', 'plain', seg, kind, c, lang)


def build():
    # secret / plain : vendor credentials (every format once, then extra draws)
    for spec in VENDORS:
        repeat(lambda: gen_vendor(spec))
    for _ in range(150):
        spec = ch(VENDORS)
        repeat(lambda: gen_vendor(spec))

    def en_one():
        kind, c = en_personal()
        return item('secret', 'plain', guess_source(c), kind, c, 'en')

    def ml_one(lang):
        kind, form, c = ml_personal(lang)
        return item('secret', 'plain', f'{form}-{lang}', kind, c, lang)

    # secret / plain : personal secrets
    for _ in range(150):
        repeat(en_one)
    for lang in NON_EN:
        for _ in range(9):
            repeat(lambda: ml_one(lang))

    # secret / hard : evasion techniques
    def tech_one(name, fn):
        kind, c = fn()
        return item('secret', 'hard', name, kind, c)

    def key_one(name, fn):
        kind, c, extra = fn()
        return item('secret', 'hard', name, kind, c, extra=extra)

    for name, fn in TECHS:
        for _ in range(2 + (1 if chance(0.3) else 0)):
            repeat(lambda: tech_one(name, fn))
    for name, fn, n in KEY_TECHS:
        for _ in range(n):
            repeat(lambda: key_one(name, fn))

    # benign / plain : ordinary memories
    def ord_one():
        src, c = ordinary()
        return item('benign', 'plain', src, f'ordinary-{src}', c)

    for _ in range(580):
        repeat(ord_one)

    # benign / hard : look-alike families
    for fam, g in BENIGN_FAMILIES:
        gen = fam_tpl(g) if isinstance(g, list) else g
        for _ in range(4 + (1 if chance(0.25) else 0)):
            repeat(lambda: item('benign', 'hard', fam, fam, gen()))


def finalize():
    recs, metas = [], []
    counters = {}
    for it in ITEMS:
        c = it['content']
        pre_band = band(clen(c))
        if chance(0.05):
            c, wtype = longify(c), 'long-bundle'
        else:
            c, wtype = wrap(c)
        value = to_value(c)
        pre = f"h16-{'s' if it['label'] == 'secret' else 'b'}-{'p' if it['variant'] == 'plain' else 'h'}-{it['segment']}"
        counters[pre] = counters.get(pre, 0) + 1
        key = it['extra'].get('key') or 'mem_' + rs(HEXL, R.randint(8, 32))
        ns = ['memories', 'u' + rs(DIG, R.randint(4, 9))]
        if 'ns3' in it['extra']:
            ns.append(it['extra']['ns3'])
        rec = {'id': f'{pre}-{counters[pre]:03d}', 'label': it['label'], 'kind': it['kind'], 'variant': it['variant'],
               'namespace': ns, 'key': key, 'value': value}
        recs.append(rec)
        metas.append({'wrapper': wtype, 'lang': it['lang'], 'ctype': it['content']['t'], 'pre_band': pre_band})
    order = list(range(len(recs)))
    R.shuffle(order)
    return [recs[i] for i in order], [metas[i] for i in order]


def table(header, rows):
    out = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    out += ['| ' + ' | '.join(str(x) for x in r) + ' |' for r in rows]
    return '\n'.join(out)


def readme(recs, metas, sha):
    labels = ['secret', 'benign']
    n = {l: sum(1 for r in recs if r['label'] == l) for l in labels}
    lv = [[l, v, sum(1 for r in recs if r['label'] == l and r['variant'] == v)] for l in labels for v in ['plain', 'hard']]
    shapes = []
    for l in labels:
        row = [l]
        for s in ['string', 'object', 'array']:
            k = sum(1 for r in recs if r['label'] == l and shape_of(r['value']) == s)
            row.append(f'{k} ({100 * k / n[l]:.1f}%)')
        shapes.append(row)
    bands = ['<40', '40-99', '100-299', '300-799', '800+']
    brows = []
    for l in labels:
        row = [l]
        for b in bands:
            k = sum(1 for r in recs if r['label'] == l and band(vlen(r['value'])) == b)
            row.append(f'{k} ({100 * k / n[l]:.1f}%)')
        brows.append(row)
    wtypes = sorted({m['wrapper'] for m in metas})
    wrows = []
    for l in labels:
        idx = [i for i, r in enumerate(recs) if r['label'] == l]
        wrapped = sum(1 for i in idx if metas[i]['wrapper'] != 'none')
        wrows.append([l, f'{wrapped} ({100 * wrapped / len(idx):.1f}%)'] +
                     [sum(1 for i in idx if metas[i]['wrapper'] == w) for w in wtypes if w != 'none'])
    wband = []
    for l in labels:
        row = [l]
        for b in bands:
            idx = [i for i, r in enumerate(recs) if r['label'] == l and metas[i]['pre_band'] == b]
            k = sum(1 for i in idx if metas[i]['wrapper'] not in ('none', 'long-bundle'))
            row.append(f'{100 * k / len(idx):.0f}% of {len(idx)}' if idx else '-')
        wband.append(row)
    segs = {}
    for r in recs:
        key = (r['label'], r['variant'], r['id'].rsplit('-', 1)[0].split('-', 3)[3])
        segs[key] = segs.get(key, 0) + 1
    segrows = [[l, v, s, k] for (l, v, s), k in sorted(segs.items())]
    kinds = {l: len({r['kind'] for r in recs if r['label'] == l}) for l in labels}
    langs = {l: sorted({metas[i]['lang'] for i, r in enumerate(recs) if r['label'] == l}) for l in labels}
    sp_langs = sorted({metas[i]['lang'] for i, r in enumerate(recs) if r['label'] == 'secret' and r['variant'] == 'plain'
                       and not r['kind'] in {v[0] for v in VENDORS}})
    techs = len({r['id'].rsplit('-', 1)[0] for r in recs if r['label'] == 'secret' and r['variant'] == 'hard'})
    fams = len({r['kind'] for r in recs if r['label'] == 'benign' and r['variant'] == 'hard'})
    vendor_kinds = {v[0] for v in VENDORS}
    vend = [r for r in recs if r['label'] == 'secret' and r['variant'] == 'plain' and r['kind'] in vendor_kinds]
    pers = [r for r in recs if r['label'] == 'secret' and r['variant'] == 'plain' and r['kind'] not in vendor_kinds]
    keyns = sum(1 for r in recs if len(r['namespace']) > 2 or any(r['id'].startswith(f'h16-s-h-{t}-') for t, _, _ in KEY_TECHS))
    lines = [
        '# secrets_heldout16 - held-out evaluation corpus for the memory-store secret detector', '',
        '**Status: FROZEN.** Never edit `heldout16.jsonl` and never tune a detector on it. Report errata in a separate',
        '`ERRATA.md` next to this file instead of changing the data.', '',
        f'- file: `heldout16.jsonl`', f'- sha256: `{sha}`', f'- records: {len(recs)} ({n["secret"]} secret, {n["benign"]} benign)',
        f'- generator: `make_heldout16.py` (Python 3.11 stdlib only), one `random.Random({SEED})` instance for every choice and the final shuffle;',
        '  re-running it reproduces both files byte for byte.', '',
        'The corpus was written independently of the detector and of every other corpus in the repository: the author did not read',
        'detector code, tests, benchmarks, docs or other corpora. All credential values are synthetic (seeded RNG) and only imitate',
        'real formats; card numbers are Luhn-valid with real brand prefixes but are never published test numbers.', '',
        '## Record format', '',
        '```', '{"id": "h16-{s|b}-{p|h}-{segment}-{nnn}", "label": "secret"|"benign", "kind": "<short kind>",',
        ' "variant": "plain"|"hard", "namespace": ["memories", "u<digits>"(, "<extra>")], "key": "mem_<8-32 hex>",',
        ' "value": <string | object | array>}', '```', '',
        '- secret/plain: segment = container or source (env file, yaml, code, curl, chat, notes, form, ... ; `<form>-<lang>` for non-English).',
        '- secret/hard: segment = evasion technique.', '- benign/plain: segment = source, kind = `ordinary-<source>`.',
        '- benign/hard: segment = kind = look-alike family.',
        f'- {keyns} secret/hard records need `key` and/or a third `namespace` element to recover the secret (key = `mem_` + hex).', '',
        '## Labelling policy', '',
        '`secret` = anything that grants access if copied: API keys and tokens, private keys, passwords, PINs, door/alarm/safe codes,',
        'one-time and recovery codes, seed phrases, security answers, full card numbers, gift-card claim codes, session cookies,',
        'connection strings and URLs with embedded credentials - including when encoded, split, spelled out, reordered, hidden in',
        'markup or code, given as a riddle solvable from common knowledge, or recoverable only by combining parts of the same record',
        '(value + key + namespace).', '',
        '`benign` = everything else, including personal data that is not an access credential (phone numbers, e-mails, addresses,',
        'birthdays, passport/ID/order/tracking/policy numbers, IMEI, VIN, ...), hashes, public keys, certificates, publishable keys,',
        'documented example values marked as examples, published test card numbers marked as test numbers, masked/redacted values,',
        'placeholders, encrypted-at-rest blobs without their key, and talk about credentials that does not contain the value.', '',
        '## Counts', '', '### label x variant', '', table(['label', 'variant', 'records'], lv), '',
        f'- secret/plain vendor credentials: {len(vend)} records over {len({r["kind"] for r in vend})} distinct formats',
        f'- secret/plain personal secrets: {len(pers)} records, {len({r["kind"] for r in pers})} kinds, {len(sp_langs)} languages ({", ".join(sp_langs)})',
        f'- secret/hard: {sum(1 for r in recs if r["label"] == "secret" and r["variant"] == "hard")} records over {techs} distinct techniques',
        f'- benign/plain ordinary: {sum(1 for r in recs if r["label"] == "benign" and r["variant"] == "plain")} records',
        f'- benign/hard look-alikes: {sum(1 for r in recs if r["label"] == "benign" and r["variant"] == "hard")} records over {fams} families', '',
        '### value shape per label', '', table(['label', 'string', 'object', 'array'], shapes), '',
        '### length band per label (characters of the string, or of the compact JSON of objects/arrays)', '',
        table(['label'] + bands, brows), '',
        '### context wrappers', '',
        'Wrappers ("Note to self (date): ...", greetings, unrelated family/health/travel lines, date stamps, extra chat messages or',
        'fields) are applied with a probability that depends only on the content length (45% under 80 chars, 32% under 200,',
        '20% under 600, 10% above), never on the label. Shape conversion (string/object/array) depends only on the content type.', '',
        table(['label', 'wrapped'] + [w for w in wtypes if w != 'none'], wrows), '',
        'Independently of the wrappers, 5% of all records (any label) are turned into long "daily log" bundles in which the',
        'original content sits among 6-24 unrelated everyday lines (wrapper type `long-bundle`).', '',
        'Wrapped share (excluding long-bundle) per length band of the content before wrapping:', '', table(['label'] + bands, wband), '',
        '### distinct kinds, languages, techniques', '',
        table(['measure', 'secret', 'benign'], [['kinds', kinds['secret'], kinds['benign']],
                                                ['languages', len(langs['secret']), len(langs['benign'])],
                                                ['techniques / families', techs, fams]]), '',
        '### by segment', '', table(['label', 'variant', 'segment', 'records'], segrows), '']
    return '\n'.join(lines)


def main():
    build()
    recs, metas = finalize()
    data = '\n'.join(json.dumps(r, ensure_ascii=False) for r in recs) + '\n'
    raw = data.encode('utf-8')
    sha = hashlib.sha256(raw).hexdigest()
    with open(os.path.join(HERE, 'heldout16.jsonl'), 'wb') as f:
        f.write(raw)
    with open(os.path.join(HERE, 'README.md'), 'w', encoding='utf-8', newline='\n') as f:
        f.write(readme(recs, metas, sha))
    print(len(recs), sha)


if __name__ == '__main__':
    main()
