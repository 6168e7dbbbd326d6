import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devCertificateFiles, loadProxyCertificate } from '../src/tls/proxy-certificate';

describe('the proxy certificate', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'proxy-tls-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes a self-signed certificate for the node domain and loopback once, keeps the key private, and reuses it', async () => {
    const made = await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'nodes.example.test' });
    const cert = new X509Certificate(made.cert);
    expect(cert.subjectAltName).toBe('DNS:*.nodes.example.test, DNS:nodes.example.test, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.checkHost('node-1234.nodes.example.test')).toBe('*.nodes.example.test');
    // The printed addresses are on 127.0.0.1: clients verify the IP against the certificate.
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkPrivateKey(createPrivateKey(made.key))).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const { certFile, keyFile } = devCertificateFiles(dataDir);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(certFile, 'utf8')).toBe(made.cert);
    expect(await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'nodes.example.test' })).toEqual(made);
  });

  it('makes a new one when the node domain changes', async () => {
    const first = await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'a.test' });
    const second = await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'b.test' });
    expect(second.cert).not.toBe(first.cert);
    expect(new X509Certificate(second.cert).subjectAltName).toMatch(/^DNS:\*\.b\.test, DNS:b\.test, /);
  });

  it("uses the operator's files, and refuses one without the other", async () => {
    const made = await loadProxyCertificate({ DATA_DIR: dataDir, NODE_DOMAIN: 'ops.test' });
    writeFileSync(path.join(dataDir, 'c.pem'), made.cert);
    writeFileSync(path.join(dataDir, 'k.pem'), made.key);
    const given = { DATA_DIR: dataDir, NODE_DOMAIN: 'other.test', PROXY_TLS_CERT: path.join(dataDir, 'c.pem'), PROXY_TLS_KEY: path.join(dataDir, 'k.pem') };
    expect(await loadProxyCertificate(given)).toEqual(made);
    await expect(loadProxyCertificate({ ...given, PROXY_TLS_KEY: undefined })).rejects.toThrow('PROXY_TLS_CERT and PROXY_TLS_KEY go together');
  });
});
