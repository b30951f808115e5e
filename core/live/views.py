from django.http import HttpResponse


def no_push_here(request):
    """`/events/` reached through the WSGI application (runserver, the test server): push
    is served by the ASGI application only (config/asgi.py). A 204 tells EventSource not
    to reconnect, and the page keeps polling."""
    return HttpResponse(status=204)
