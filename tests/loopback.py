"""What the tests' HTTP clients share. They speak plain HTTP to servers on 127.0.0.1, yet httpx
builds a TLS context for every Client, and for every httpx.get() (one Client each): the CA bundle
read and parsed, about 18 ms of CPU each time, thousands of times a run. One context, built once,
is lent to all of them through httpx's documented `verify=` (an ssl.SSLContext)."""

import httpx

TLS = httpx.create_ssl_context()
