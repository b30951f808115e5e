"""A Content-Security-Policy header on every response.

Pages load only the project's own scripts and styles (no inline script or style, no other
host). The admin and the API docs get the policies named for their path prefixes in
``CSP_PATH_POLICIES``: Swagger UI and Redoc write inline styles and Redoc starts a
worker from a blob, so those pages allow inline styles (never inline scripts).
"""

from django.conf import settings


def policy_for(path: str) -> str:
    for prefix, policy in getattr(settings, "CSP_PATH_POLICIES", {}).items():
        if path.startswith(prefix):
            return policy
    return settings.CSP_POLICY


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.DEBUG and response.status_code >= 400:
            return response  # Django's debug error pages are styled and scripted inline
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request.path)
        return response
