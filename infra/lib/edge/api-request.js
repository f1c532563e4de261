// CloudFront Function (cloudfront-js-2.0), viewer request on the /api/* behaviour.
// API Gateway answers only to its own Host, so the origin request policy cannot forward the
// viewer's; the contact function still needs it, to tell the site's own form posts from
// another site's (a browser's Origin must name this host). So it goes on as a header of our
// own, written over anything the viewer sent under that name.

var VIEWER_HOST_HEADER = 'x-viewer-host';

function handler(event) {
  var request = event.request;
  var host = request.headers.host;
  if (host) {
    request.headers[VIEWER_HOST_HEADER] = { value: host.value };
  } else {
    delete request.headers[VIEWER_HOST_HEADER];
  }
  return request;
}
