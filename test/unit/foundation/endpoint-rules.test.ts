import { describe, expect, it } from 'vitest';
import { endpointAllowed, parseEndpointRule, type EndpointRule } from '../../../src/modules/api-keys/endpoint-rules.js';
import { routedPath } from '../../../src/http/routed-path.js';

function rules(...raw: string[]): EndpointRule[] {
  return raw.map((r) => {
    const parsed = parseEndpointRule(r);
    if (typeof parsed === 'string') throw new Error(`${r}: ${parsed}`);
    return parsed;
  });
}

const allows = (raw: string[], method: string, path: string) => endpointAllowed(rules(...raw), method, path);

describe('allowed_endpoints parsing', () => {
  it.each([
    ['GET /projects', { method: 'GET', segments: ['projects'], openEnded: false }],
    ['get /projects', { method: 'GET', segments: ['projects'], openEnded: false }],
    ['/projects/*', { method: null, segments: ['projects'], openEnded: true }],
    ['POST /workflows/*/run', { method: 'POST', segments: ['workflows', '*', 'run'], openEnded: false }],
    ['/api/v1/projects', { method: null, segments: ['projects'], openEnded: false }],
    ['  DELETE   /api-keys/*  ', { method: 'DELETE', segments: ['api-keys'], openEnded: true }],
    ['*', { method: null, segments: [], openEnded: true }],
    ['GET *', { method: 'GET', segments: [], openEnded: true }],
  ])('%s', (raw, expected) => {
    expect(parseEndpointRule(raw)).toEqual(expected);
  });

  it.each([
    ['FETCH /projects', /unknown method/],
    ['projects', /must start with \//],
    ['GET projects', /must start with \//],
    ['GET /projects extra', /METHOD/],
  ])('rejects %s', (raw, message) => {
    const parsed = parseEndpointRule(raw);
    expect(typeof parsed).toBe('string');
    expect(parsed).toMatch(message);
  });
});

describe('allowed_endpoints matching', () => {
  it('an empty list allows everything', () => {
    expect(endpointAllowed([], 'DELETE', '/projects/prj_1')).toBe(true);
  });

  it('"GET /projects" allows listing (and HEAD) but not creating or reading one project', () => {
    const r = ['GET /projects'];
    expect(allows(r, 'GET', '/projects')).toBe(true);
    expect(allows(r, 'HEAD', '/projects')).toBe(true);
    expect(allows(r, 'GET', '/projects/')).toBe(true);
    expect(allows(r, 'GET', '/projects?limit=5')).toBe(true);
    expect(allows(r, 'POST', '/projects')).toBe(false);
    expect(allows(r, 'GET', '/projects/prj_1')).toBe(false);
    expect(allows(r, 'GET', '/api-keys')).toBe(false);
  });

  it('"/projects/*" allows the collection and everything below it, any method', () => {
    const r = ['/projects/*'];
    expect(allows(r, 'GET', '/projects')).toBe(true);
    expect(allows(r, 'POST', '/projects')).toBe(true);
    expect(allows(r, 'GET', '/projects/prj_1')).toBe(true);
    expect(allows(r, 'GET', '/projects/prj_1/stats')).toBe(true);
    expect(allows(r, 'DELETE', '/projects/prj_1')).toBe(true);
    expect(allows(r, 'GET', '/projectsX')).toBe(false);
    expect(allows(r, 'GET', '/api-keys')).toBe(false);
    expect(allows(r, 'GET', '/')).toBe(false);
  });

  it('"POST /workflows/*/run": * is exactly one segment, and the method must match', () => {
    const r = ['POST /workflows/*/run'];
    expect(allows(r, 'POST', '/workflows/wf_1/run')).toBe(true);
    expect(allows(r, 'post', '/workflows/wf_2/run')).toBe(true);
    expect(allows(r, 'GET', '/workflows/wf_1/run')).toBe(false);
    expect(allows(r, 'POST', '/workflows/run')).toBe(false);
    expect(allows(r, 'POST', '/workflows/a/b/run')).toBe(false);
    expect(allows(r, 'POST', '/workflows/wf_1/run/extra')).toBe(false);
    expect(allows(r, 'POST', '/workflows/wf_1')).toBe(false);
    expect(allows(r, 'POST', '/reports/wf_1/run')).toBe(false);
  });

  it('a wildcard in the middle with an open end', () => {
    const r = ['GET /projects/*/documents/*'];
    expect(allows(r, 'GET', '/projects/p1/documents')).toBe(true);
    expect(allows(r, 'GET', '/projects/p1/documents/d1')).toBe(true);
    expect(allows(r, 'GET', '/projects/p1/stats')).toBe(false);
  });

  it('several rules: any one may allow the request', () => {
    const r = ['GET /projects', 'POST /projects/*/archive'];
    expect(allows(r, 'GET', '/projects')).toBe(true);
    expect(allows(r, 'POST', '/projects/p1/archive')).toBe(true);
    expect(allows(r, 'POST', '/projects')).toBe(false);
    expect(allows(r, 'POST', '/projects/p1/unarchive')).toBe(false);
  });

  it('"*" allows everything; "GET *" only reads', () => {
    expect(allows(['*'], 'DELETE', '/api-keys/key_1')).toBe(true);
    expect(allows(['GET *'], 'GET', '/api-keys/key_1')).toBe(true);
    expect(allows(['GET *'], 'POST', '/projects')).toBe(false);
  });

  it('the /api/v1 prefix in a rule is optional', () => {
    expect(allows(['GET /api/v1/projects'], 'GET', '/projects')).toBe(true);
  });
});

describe('routed path (what allowed_endpoints is checked against)', () => {
  it('rebuilds the path from the matched route and its decoded parameters', () => {
    expect(routedPath('/api/v1/projects/:id/stats', { id: 'prj_1' }, '/api/v1')).toBe('/projects/prj_1/stats');
    expect(routedPath('/api/v1/projects', {}, '/api/v1')).toBe('/projects');
    expect(routedPath('/api/v1', {}, '/api/v1')).toBe('/');
    expect(routedPath('/api/v1/files/*', { '*': 'a/b' }, '/api/v1')).toBe('/files/a%2Fb');
  });

  it('a parameter holding a slash, a fragment or dots stays one segment and cannot satisfy a longer rule', () => {
    const r = ['GET /projects/*/stats'];
    for (const id of ['x/stats', 'x#/stats', '../x', 'x;/stats']) {
      const path = routedPath('/api/v1/projects/:id', { id }, '/api/v1');
      expect(path.split('/').filter(Boolean)).toHaveLength(2);
      expect(allows(r, 'GET', path), id).toBe(false);
    }
    expect(allows(r, 'GET', routedPath('/api/v1/projects/:id/stats', { id: 'a/b' }, '/api/v1'))).toBe(true);
  });
});
