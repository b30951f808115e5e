from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """`limit` and `offset` clamped to what every database can take (a value beyond a
    64-bit integer used to reach SQL and fail there); junk falls back to the defaults."""

    max_limit = 500
    max_offset = 10**9

    def get_offset(self, request) -> int:
        return min(super().get_offset(request), self.max_offset)
