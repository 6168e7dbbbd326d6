import 'reflect-metadata'; // @peculiar/x509's dependency injection needs it loaded first
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes, webcrypto, X509Certificate } from 'node:crypto';
import path from 'node:path';
import * as x509 from '@peculiar/x509';

export interface TlsMaterial {
  cert: string;
  key: string;
}

export interface CertificateSettings {
  DATA_DIR: string;
  NODE_DOMAIN: string;
  PROXY_TLS_CERT?: string | undefined;
  PROXY_TLS_KEY?: string | undefined;
}

const VALID_DAYS = 825; // the longest validity browsers and most clients accept for a server certificate
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

/**
 * The names the dev certificate is for: every node's name, and the loopback addresses the printed
 * node addresses use (`https://127.0.0.1:9332/`), so clients verify both with the one CA file.
 */
function devCertificateNames(domain: string): string[] {
  return [`DNS:*.${domain}`, `DNS:${domain}`, 'DNS:localhost', 'IP Address:127.0.0.1', 'IP Address:0:0:0:0:0:0:0:1'];
}

/**
 * The proxy's certificate: the operator's (PROXY_TLS_CERT/PROXY_TLS_KEY, PEM files), or else a
 * self-signed one for `*.<NODE_DOMAIN>`, `localhost`, 127.0.0.1 and ::1, made once and kept under
 * $DATA_DIR/tls, and made again when the names change or it is within 30 days of expiry. Clients trust it by its file
 * (`curl --cacert .data/tls/proxy-cert.pem`).
 */
export async function loadProxyCertificate(settings: CertificateSettings): Promise<TlsMaterial> {
  if (settings.PROXY_TLS_CERT || settings.PROXY_TLS_KEY) {
    if (!settings.PROXY_TLS_CERT || !settings.PROXY_TLS_KEY) throw new Error('PROXY_TLS_CERT and PROXY_TLS_KEY go together: set both or neither');
    return { cert: readFileSync(settings.PROXY_TLS_CERT, 'utf8'), key: readFileSync(settings.PROXY_TLS_KEY, 'utf8') };
  }
  const { certFile, keyFile } = devCertificateFiles(settings.DATA_DIR);
  try {
    const kept = { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
    if (stillGood(kept.cert, settings.NODE_DOMAIN)) return kept;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = await selfSignedWildcard(settings.NODE_DOMAIN);
  mkdirSync(path.dirname(certFile), { recursive: true, mode: 0o700 });
  writeAtomically(keyFile, made.key, 0o600);
  writeAtomically(certFile, made.cert, 0o644);
  return made;
}

/** Where the embedded default keeps its certificate and key. */
export function devCertificateFiles(dataDir: string): { certFile: string; keyFile: string } {
  return { certFile: path.join(dataDir, 'tls', 'proxy-cert.pem'), keyFile: path.join(dataDir, 'tls', 'proxy-key.pem') };
}

function stillGood(pem: string, domain: string): boolean {
  const cert = new X509Certificate(pem);
  const names = (cert.subjectAltName ?? '').split(', ');
  return devCertificateNames(domain).every((name) => names.includes(name)) && new Date(cert.validTo).getTime() - Date.now() > RENEW_BEFORE_MS;
}

async function selfSignedWildcard(domain: string): Promise<TlsMaterial> {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(16)
      .toString('hex')
      .replace(/^[89a-f]/, '1'), // positive, as RFC 5280 asks
    name: `CN=*.${domain}, O=Cloud node-proxy (development)`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + VALID_DAYS * 24 * 3600 * 1000),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: `*.${domain}` },
        { type: 'dns', value: domain },
        { type: 'dns', value: 'localhost' },
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
      ]),
    ],
  });
  const key = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { cert: cert.toString('pem'), key: x509.PemConverter.encode(key, 'PRIVATE KEY') };
}

function writeAtomically(file: string, content: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  renameSync(temporary, file);
}
