# The image a Hugging Face Job evaluates one queued request in (WORKER_DISPATCH=hf-jobs; docs/hf_jobs.md).
# vLLM's own image brings CUDA, its torch build and vllm at the version requirements-gpu.txt pins; the
# engine's other requirements go beside it (not requirements.txt's CPU torch pin, nor the web app's gradio).
# Build and push it, then set HF_JOBS_IMAGE on the Space:
#   docker build -t ghcr.io/ORG/indic-board-jobs:1 . && docker push ghcr.io/ORG/indic-board-jobs:1
FROM vllm/vllm-openai:v0.33.0

WORKDIR /app
ENV PYTHONUNBUFFERED=1 \
    HF_HUB_DISABLE_TELEMETRY=1 \
    NLTK_DATA=/app/nltk_data

COPY requirements.txt requirements-gpu.txt ./
RUN grep -v -E '^(torch|gradio)==' requirements.txt > /tmp/engine-requirements.txt \
    && python3 -m pip install --no-cache-dir -r /tmp/engine-requirements.txt -r requirements-gpu.txt \
    && rm /tmp/engine-requirements.txt

# The nltk data of the Saraiki instruction checks, from the wheel that ships it (as `make install` does).
RUN python3 -m pip download --no-cache-dir --no-deps --dest /tmp/nltk-wheel llama-index-core==0.14.25 \
    && python3 -m zipfile -e /tmp/nltk-wheel/*.whl /tmp/nltk-wheel/files \
    && mv /tmp/nltk-wheel/files/llama_index/core/_static/nltk_cache "$NLTK_DATA" \
    && rm -rf /tmp/nltk-wheel

# The Job's command starts with `python` (eval_backend/submissions/job_spec.py).
RUN command -v python >/dev/null || ln -s "$(command -v python3)" /usr/local/bin/python

COPY eval_backend ./eval_backend

# vLLM's image starts its server; a Job runs the command it is given instead.
ENTRYPOINT []
CMD ["python", "-m", "eval_backend", "job-run", "--help"]
