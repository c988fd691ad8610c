import { describe, expect, it } from 'vitest';
import { RpcError } from '../rpc/index.js';
import { isLoopbackAddress, isLoopbackHost, REMOTE_CALL_REFUSED, requireLocalPeer } from './peer-access.js';

describe('isLoopbackAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.3.4',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::FFFF:127.1.2.3',
    '::ffff:7f00:1',
    '0:0:0:0:0:ffff:127.0.0.1',
  ])('%s is loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([
    '10.0.0.1',
    '192.168.1.10',
    '203.0.113.7',
    '128.0.0.1',
    '::',
    '::2',
    'fe80::1',
    '::ffff:10.0.0.1',
    '::ffff:8000:1',
    '2001:db8::ffff:127.0.0.1',
    '127.0.0',
    '127.0.0.1.5',
    '127.0.0.256',
    '',
    'localhost',
  ])('%s is not', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it('knows which listen addresses stay on this machine', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.0.0.2']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '[::]', '192.168.1.10', 'example.internal']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('requireLocalPeer', () => {
  const check = requireLocalPeer();
  const outcome = (peer: Parameters<typeof check>[0]['peer']): string => {
    try {
      check({ peer });
      return 'ok';
    } catch (error) {
      expect(error).toBeInstanceOf(RpcError);
      return `${(error as RpcError).code}: ${(error as RpcError).message}`;
    }
  };

  it('lets through loopback peers, Unix-socket peers and requests that came without a socket', () => {
    expect(outcome({ address: '127.0.0.1', unixSocket: false })).toBe('ok');
    expect(outcome({ address: '::1', unixSocket: false })).toBe('ok');
    expect(outcome({ address: undefined, unixSocket: true })).toBe('ok');
    expect(outcome(undefined)).toBe('ok');
  });

  it('refuses other hosts, and a TCP connection whose address was lost (closed before the check)', () => {
    expect(outcome({ address: '192.0.2.1', unixSocket: false })).toBe(`permission_denied: ${REMOTE_CALL_REFUSED}`);
    expect(outcome({ address: undefined, unixSocket: false })).toBe(`permission_denied: ${REMOTE_CALL_REFUSED}`);
  });
});
