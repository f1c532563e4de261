// CloudFront Function (cloudfront-js-2.0), viewer response on the site behaviour.
// Gives the 404 page that viewer-request served for an unknown path the status 404, so
// crawlers and monitors see a missing page as missing. A request for /404.html itself
// stays 200, as does a page asked for by its clean URL.

// Filled in at synth from the build and cache-control.ts; these values only let the file run as is.
var SITE_FILES = { '/index.html': true, '/404.html': true };
var HASHED_ASSET_PREFIX = '/assets/';

var NOT_FOUND_MARKER = 'x-site-not-found';

function handler(event) {
  var request = event.request;
  var response = event.response;
  var uri = request.uri;
  var page = uri !== '/index' && SITE_FILES[uri + '.html'] === true;
  var known = uri === '/' || SITE_FILES[uri] === true || page || uri.indexOf(HASHED_ASSET_PREFIX) === 0;
  // A 304 stays 304: the browser revalidated the 404 page it already holds with status 404.
  if (response.statusCode === 200 && (request.headers[NOT_FOUND_MARKER] || !known)) {
    response.statusCode = 404;
    response.statusDescription = 'Not Found';
  }
  return response;
}
