/**
 * How rest_cherrypy reports errors (salt/netapi/rest_cherrypy/app.py): a
 * `cherrypy.HTTPError` becomes CherryPy's default XHTML error page
 * (`text/html;charset=utf-8`, empty traceback when `debug: False`); only the catch-all
 * inside `hypermedia_handler` is serialized as `{"status": 500, "return": "An unexpected
 * error occurred"}` in the negotiated format.
 */
import type { Response } from 'express';

/** The CherryPy version named in the Server header and the error page footer. */
export const CHERRYPY_VERSION = '18.10.0';

/** Reason phrase and stock message (http.HTTPStatus / cherrypy httputil.response_codes). */
const STOCK: Record<number, [string, string]> = {
  400: ['Bad Request', 'Bad request syntax or unsupported method'],
  401: ['Unauthorized', 'No permission -- see authorization schemes'],
  403: ['Forbidden', 'Request forbidden -- authorization will not help'],
  404: ['Not Found', "The path '%s' was not found."],
  405: ['Method Not Allowed', 'Specified method is invalid for this resource'],
  406: ['Not Acceptable', 'URI not available in preferred format'],
  413: ['Request Entity Too Large', 'Entity is too large'],
  500: [
    'Internal Server Error',
    'The server encountered an unexpected condition which prevented it from fulfilling the request.',
  ],
  502: ['Bad Gateway', 'Invalid responses from another server/proxy'],
  503: [
    'Service Unavailable',
    'The server is currently unable to handle the request due to a temporary overloading or maintenance of the server.',
  ],
  504: ['Gateway Timeout', 'The gateway server did not receive a timely response'],
};

/**
 * An error the simulator answers with. `json` marks the hypermedia_handler catch-all
 * (a serialized 500); every other one renders as CherryPy's HTML page.
 */
export class SimError extends Error {
  constructor(
    readonly status: number,
    message?: string,
    readonly json = false,
  ) {
    super(message ?? STOCK[status]?.[1] ?? 'Error');
  }
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** CherryPy's `_HTTPErrorTemplate`, filled the way `HTTPError.get_error_page` does. */
export function cherrypyErrorPage(status: number, message: string): string {
  const line = `${status} ${STOCK[status]?.[0] ?? 'Error'}`;
  return `<!DOCTYPE html PUBLIC
"-//W3C//DTD XHTML 1.0 Transitional//EN"
"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html>
<head>
    <meta http-equiv="Content-Type" content="text/html; charset=utf-8"></meta>
    <title>${line}</title>
    <style type="text/css">
    #powered_by {
        margin-top: 20px;
        border-top: 2px solid black;
        font-style: italic;
    }

    #traceback {
        color: red;
    }
    </style>
</head>
    <body>
        <h2>${line}</h2>
        <p>${escapeHtml(message)}</p>
        <pre id="traceback"></pre>
    <div id="powered_by">
      <span>
        Powered by <a href="http://www.cherrypy.dev">CherryPy ${CHERRYPY_VERSION}</a>
      </span>
    </div>
    </body>
</html>
`;
}

/** Writes a body with an exact Content-Type (express would append `; charset=utf-8`). */
function sendRaw(res: Response, status: number, contentType: string, text: string): void {
  const body = Buffer.from(text, 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', String(body.length));
  res.end(body);
}

/** A JSON answer: rest_cherrypy's Content-Type is exactly `application/json`. */
export function sendJson(res: Response, body: unknown, status = 200): void {
  sendRaw(res, status, 'application/json', JSON.stringify(body));
}

/** Writes an error the way salt-api would: HTML page, or the JSON catch-all 500. */
export function sendSimError(res: Response, err: SimError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (err.json) return sendJson(res, { status: err.status, return: err.message }, err.status);
  sendRaw(res, err.status, 'text/html;charset=utf-8', cherrypyErrorPage(err.status, err.message));
}

/** The hypermedia_handler catch-all (unknown runner, unexpected exception): JSON 500. */
export function unexpectedError(): SimError {
  return new SimError(500, 'An unexpected error occurred', true);
}
