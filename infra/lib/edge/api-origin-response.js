// Lambda@Edge (Node.js), origin response on the /api/* behaviour.
// A form post without scripts must land on a page. The contact function always answers one
// with a page (a 303 to a result page, or the form again as HTML), but API Gateway answers
// some posts itself, before or instead of the function, with JSON such as
// {"message":"Too Many Requests"}: its stage throttle (429), a function that failed (500), a
// Lambda throttle (503), an integration timeout (504). Those go on to the result page that
// says the same, as a 303 like the function's own. A CloudFront Function cannot do this:
// CloudFront runs no viewer-response function when the origin answers 400 or higher.

var BUSY_PAGE = '/niet-verzonden/druk';
var FAILED_PAGE = '/niet-verzonden';
var FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

function headerValue(headers, name) {
  var values = headers[name];
  return values && values.length > 0 ? values[0].value : '';
}

function mediaType(headers) {
  return headerValue(headers, 'content-type').split(';')[0].trim().toLowerCase();
}

/** The page for API Gateway's own answer to a form post, or undefined to pass the answer on. */
function pageFor(request, response) {
  if (request.method !== 'POST' || mediaType(request.headers) !== FORM_CONTENT_TYPE) return undefined;
  // The function's own answers to a form post are pages (text/html) or redirects.
  if (mediaType(response.headers) === 'text/html') return undefined;
  var status = Number(response.status);
  if (status === 429) return BUSY_PAGE;
  if (status >= 500) return FAILED_PAGE;
  return undefined;
}

function handler(event) {
  var cf = event.Records[0].cf;
  var response = cf.response;
  var page = pageFor(cf.request, response);
  if (page !== undefined) {
    response.status = '303';
    response.statusDescription = 'See Other';
    // A redirect needs no body; the JSON is not for a person.
    response.body = '';
    delete response.headers['content-type'];
    response.headers['location'] = [{ key: 'Location', value: page }];
    response.headers['cache-control'] = [{ key: 'Cache-Control', value: 'no-store' }];
  }
  return Promise.resolve(response);
}

exports.handler = handler;
