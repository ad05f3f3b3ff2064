import io

from django.conf import settings
from rest_framework.parsers import JSONParser

from games.api.errors import PayloadTooLarge


class BoundedJSONParser(JSONParser):
    """JSON with a size limit. DRF reads the raw stream, which skips Django's own body-size
    check, so the limit is enforced here (by Content-Length, then by what is actually read)."""

    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        if length and str(length).isdigit() and int(length) > limit:
            raise PayloadTooLarge(f"request body over {limit} bytes")
        if stream is not None:
            data = stream.read(limit + 1)
            if len(data) > limit:
                raise PayloadTooLarge(f"request body over {limit} bytes")
            stream = io.BytesIO(data)
        return super().parse(stream, media_type, parser_context)
