// CloudFront Function (cloudfront-js-2.0), viewer request on the site behaviour.
// The site is a fixed set of prerendered files, so the edge can tell a real page from an
// unknown path without asking S3: a page is served at its clean URL (/privacy from
// /privacy.html), unknown paths get the 404 page, and the viewer-response function gives it
// status 404. This replaces distribution-wide custom error responses, which would also
// rewrite the API's own 4xx/5xx answers into HTML.

// Filled in at synth from the build and cache-control.ts; these values only let the file run as is.
var SITE_FILES = { '/index.html': true, '/404.html': true };
var HASHED_ASSET_PREFIX = '/assets/';

// CloudFront may hand viewer-response the request as the viewer sent it, or as rewritten
// here; the marker says "not found" in the second case, the original uri in the first.
var NOT_FOUND_MARKER = 'x-site-not-found';

function handler(event) {
  var request = event.request;
  var uri = request.uri === '/' ? '/index.html' : request.uri;
  // The home page has one address, /; /index stays unknown.
  if (SITE_FILES[uri] !== true && uri !== '/index' && SITE_FILES[uri + '.html'] === true) {
    uri = uri + '.html';
  } else if (SITE_FILES[uri] !== true && uri.indexOf(HASHED_ASSET_PREFIX) !== 0) {
    // Old hashed assets stay in the bucket after a deploy (no prune), so open tabs can still
    // load them: every path under the prefix goes to S3, which answers 404 for what is not there.
    uri = '/404.html';
    request.headers[NOT_FOUND_MARKER] = { value: '1' };
  }
  request.uri = uri;
  return request;
}
