import { describe, expect, it } from 'vitest';
import { fromHandlerResult, toApiGatewayEvent } from '../src/api-gateway';

const request = (body: Buffer, contentType = 'application/json') => ({
  method: 'POST',
  url: '/api/send-contact-email?a=1',
  headers: { 'content-type': contentType, 'x-multi': ['a', 'b'] },
  body,
  sourceIp: '127.0.0.1',
});

describe('API Gateway v2 event', () => {
  it('passes JSON as text, query and repeated headers as API Gateway does', () => {
    const event = toApiGatewayEvent(request(Buffer.from('{"a":"é"}')), 'ANY /api/send-contact-email');
    expect(event).toMatchObject({
      version: '2.0',
      rawPath: '/api/send-contact-email',
      rawQueryString: 'a=1',
      body: '{"a":"é"}',
      isBase64Encoded: false,
    });
    expect(event.headers['x-multi']).toBe('a,b');
    expect(event.queryStringParameters).toEqual({ a: '1' });
  });

  it('keeps a byte-order mark, so the handler sees the bytes that were sent', () => {
    const event = toApiGatewayEvent(request(Buffer.from('\uFEFF{}')), 'ANY /x');
    expect(event.body).toBe('\uFEFF{}');
  });

  it('base64-encodes invalid UTF-8 and non-text bodies', () => {
    const invalid = Buffer.from([0x7b, 0xff, 0x7d]);
    expect(toApiGatewayEvent(request(invalid), 'ANY /x')).toMatchObject({ body: invalid.toString('base64'), isBase64Encoded: true });
    expect(toApiGatewayEvent(request(Buffer.from('abc'), 'application/octet-stream'), 'ANY /x')).toMatchObject({ isBase64Encoded: true });
  });

  it('turns a bare object result into a 200 JSON answer and decodes base64 results', () => {
    expect(fromHandlerResult({ ok: true } as never)).toMatchObject({ statusCode: 200, headers: { 'content-type': 'application/json' } });
    const decoded = fromHandlerResult({
      statusCode: 201,
      headers: { 'X-A': 'b' },
      body: Buffer.from('hi').toString('base64'),
      isBase64Encoded: true,
    });
    expect(decoded).toMatchObject({ statusCode: 201, headers: { 'x-a': 'b' } });
    expect(decoded.body.toString()).toBe('hi');
  });
});
