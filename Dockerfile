FROM python:3.12-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
COPY workers ./workers
RUN pip install --no-cache-dir .
ENV PORT=8000 MEOW_HOST=0.0.0.0
EXPOSE 8000
CMD ["gunicorn", "--config", "python:service.gunicorn_conf", "service.api.app:create_app()"]
