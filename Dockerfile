FROM python:3.12-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY service ./service
COPY workers ./workers
RUN pip install --no-cache-dir .
ENV PORT=8000
EXPOSE 8000
CMD ["gunicorn", "--config", "python:service.gunicorn_conf", "--bind", "0.0.0.0:8000", "service.api.app:create_app()"]
