"""The four git projects the real-OpenCode eval corpus works in: their files at the first commit.

Sessions read, grep and edit these files for real, so their contents are what the store records.
Keep edits in `scenarios.py` consistent with them (an `edit` whose old text is missing fails the build).
"""

from __future__ import annotations

API_GATEWAY: dict[str, str] = {
    "README.md": "# api-gateway\n\nPublic HTTP gateway in front of the billing and reporting services.\n",
    "pyproject.toml": """[project]
name = "api-gateway"
version = "0.9.2"
requires-python = ">=3.11"
dependencies = [
    "fastapi==0.111.0",
    "uvicorn[standard]==0.30.1",
    "redis==5.0.4",
    "pyjwt==2.8.0",
    "sqlalchemy==2.0.30",
    "alembic==1.13.1",
    "psycopg2-binary==2.9.9",
    "httpx==0.27.0",
]

[tool.pytest.ini_options]
testpaths = ["tests"]
""",
    "gateway/__init__.py": "",
    "gateway/app.py": '''"""Application factory."""

from fastapi import FastAPI

from gateway.config import Settings
from gateway.routes import events, internal, keys, reports


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(title="api-gateway", version="0.9.2")
    app.state.settings = settings
    app.include_router(events.router, prefix="/v1")
    app.include_router(keys.router, prefix="/v1")
    app.include_router(reports.router, prefix="/v1")
    app.include_router(internal.router, prefix="/internal")
    return app
''',
    "gateway/config.py": """from dataclasses import dataclass, field
import os


@dataclass
class Settings:
    redis_url: str = field(default_factory=lambda: os.environ.get("REDIS_URL", "redis://redis:6379/0"))
    database_url: str = field(default_factory=lambda: os.environ.get("DATABASE_URL", "postgresql://gw@db/gw"))
    jwt_secret: str = field(default_factory=lambda: os.environ.get("JWT_SECRET", "dev-only"))
    jwt_audience: str = "api-gateway"
""",
    "gateway/deps.py": """from fastapi import Depends, Header, HTTPException

from gateway.auth.jwt import decode_token


async def require_api_key(x_api_key: str = Header(...)) -> str:
    if not x_api_key.startswith("gk_"):
        raise HTTPException(status_code=401, detail="invalid api key")
    return x_api_key


async def current_user(authorization: str = Header(...)) -> dict:
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer":
        raise HTTPException(status_code=401, detail="bearer token required")
    return decode_token(token)


RequireKey = Depends(require_api_key)
""",
    "gateway/auth/__init__.py": "",
    "gateway/auth/jwt.py": """import jwt

from gateway.config import Settings

_settings = Settings()


def decode_token(token: str) -> dict:
    return jwt.decode(
        token,
        _settings.jwt_secret,
        algorithms=["HS256"],
        audience=_settings.jwt_audience,
    )
""",
    "gateway/auth/session_store.py": '''"""Access tokens cached per client; refreshed shortly before expiry."""

import asyncio
import time

REFRESH_MARGIN = 0.1  # seconds before expiry


class SessionStore:
    def __init__(self, issuer) -> None:
        self._issuer = issuer
        self._token: str | None = None
        self._expires_at = 0.0

    async def token(self) -> str:
        if self._token is None or time.monotonic() > self._expires_at - REFRESH_MARGIN:
            await self._refresh()
        return self._token

    async def _refresh(self) -> None:
        token, ttl = await self._issuer.issue()
        await asyncio.sleep(0)
        self._token = token
        self._expires_at = time.monotonic() + ttl
''',
    "gateway/routes/__init__.py": "",
    "gateway/routes/events.py": """from fastapi import APIRouter, Query

from gateway.deps import RequireKey

router = APIRouter()


@router.get("/events", dependencies=[RequireKey])
async def list_events(offset: int = Query(0, ge=0), limit: int = Query(50, le=500)) -> dict:
    rows = await _fetch_events(offset=offset, limit=limit)
    return {"items": rows, "offset": offset + len(rows)}


async def _fetch_events(offset: int, limit: int) -> list[dict]:
    return []
""",
    "gateway/routes/keys.py": """from fastapi import APIRouter

from gateway.deps import RequireKey

router = APIRouter()


@router.get("/keys", dependencies=[RequireKey])
async def list_keys() -> list[dict]:
    return []


@router.post("/keys/{key_id}/rotate", dependencies=[RequireKey])
async def rotate_key(key_id: str) -> dict:
    return {"id": key_id, "rotated": True}
""",
    "gateway/routes/reports.py": """from fastapi import APIRouter
from fastapi.responses import StreamingResponse

router = APIRouter()


@router.get("/reports/usage")
async def usage_report(month: str) -> dict:
    return {"month": month, "requests": 0}


@router.get("/reports/export")
async def export_csv_report(month: str) -> StreamingResponse:
    async def rows():
        yield "key_id,requests,errors\\n"

    return StreamingResponse(rows(), media_type="text/csv")
""",
    "gateway/routes/internal.py": """from fastapi import APIRouter

router = APIRouter()


@router.get("/healthz")
async def healthz() -> dict:
    return {"ok": True}


@router.get("/metrics")
async def metrics_dump() -> dict:
    return {"requests_total": 0, "keys": []}
""",
    "tests/__init__.py": "",
    "tests/conftest.py": """import pytest

from gateway.app import create_app


@pytest.fixture
def app():
    return create_app()
""",
    "tests/test_auth.py": """import asyncio

import pytest

from gateway.auth.session_store import SessionStore


class SlowIssuer:
    def __init__(self) -> None:
        self.calls = 0

    async def issue(self):
        self.calls += 1
        await asyncio.sleep(0.05)
        return f"tok-{self.calls}", 0.12


@pytest.mark.asyncio
async def test_auth_retry():
    store = SessionStore(SlowIssuer())
    first = await store.token()
    await asyncio.sleep(0.03)
    second = await store.token()
    assert first == second
""",
    "alembic/versions/0006_create_api_keys.py": '''"""create api_keys

Revision ID: 0006_create_api_keys
"""
import sqlalchemy as sa
from alembic import op

revision = "0006_create_api_keys"
down_revision = "0005_create_clients"


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("client_id", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("api_keys")
''',
    "alembic/versions/0007_add_api_key_scopes.py": '''"""add scopes to api_keys

Revision ID: 0007_add_api_key_scopes
"""
import sqlalchemy as sa
from alembic import op

revision = "0007_add_api_key_scopes"
down_revision = "0006_create_api_keys"


def upgrade() -> None:
    op.add_column("api_keys", sa.Column("scopes", sa.ARRAY(sa.String()), nullable=False, server_default="{}"))


def downgrade() -> None:
    op.drop_column("api_keys", "scopes")
''',
    "Dockerfile": """FROM python:3.11
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir . && pip install --no-cache-dir pytest pytest-asyncio
EXPOSE 8080
CMD ["uvicorn", "gateway.app:create_app", "--factory", "--host", "0.0.0.0", "--port", "8080"]
""",
    "docker-compose.yml": """services:
  gateway:
    build: .
    environment:
      REDIS_URL: redis://redis:6379/0
      DATABASE_URL: postgresql://gw:gw@db/gw
    ports: ["8080:8080"]
    depends_on: [cache, db]
  cache:
    image: redis:7.2-alpine
  db:
    image: postgres:16-alpine
    environment:
      POSTGRES_USER: gw
      POSTGRES_PASSWORD: gw
""",
}

BILLING_SERVICE: dict[str, str] = {
    "README.md": "# billing-service\n\nInvoices, Stripe webhooks and the invoice poller.\n",
    "go.mod": """module github.com/acme/billing-service

go 1.21

require (
	github.com/jackc/pgx/v5 v5.5.5
	github.com/stripe/stripe-go/v76 v76.25.0
	golang.org/x/time v0.5.0
)
""",
    "cmd/billing/main.go": """package main

import (
	"context"
	"log/slog"
	"net/http"
	_ "net/http/pprof"
	"os"

	"github.com/acme/billing-service/internal/invoice"
	"github.com/acme/billing-service/internal/webhook"
)

func main() {
	ctx := context.Background()
	poller := invoice.NewPoller(os.Getenv("DATABASE_URL"))
	go poller.Run(ctx)
	go http.ListenAndServe("localhost:6060", nil)
	http.Handle("/webhooks/stripe", webhook.Handler(poller.Store()))
	slog.Info("billing listening", "addr", ":8081")
	_ = http.ListenAndServe(":8081", nil)
}
""",
    "internal/invoice/invoice.go": """package invoice

import "math"

type Line struct {
	Description string
	Quantity    int
	UnitPrice   float64
}

type Invoice struct {
	ID       string
	Customer string
	Currency string
	Lines    []Line
	TaxRate  float64
}

// Total returns the invoice total including tax, rounded to cents.
func (inv *Invoice) Total() float64 {
	var sum float64
	for _, l := range inv.Lines {
		sum += float64(l.Quantity) * l.UnitPrice
	}
	return math.Round(sum*(1+inv.TaxRate)*100) / 100
}
""",
    "internal/invoice/poller.go": """package invoice

import (
	"context"
	"time"
)

type Poller struct {
	dsn     string
	updates chan string
	store   *Store
}

func NewPoller(dsn string) *Poller {
	return &Poller{dsn: dsn, updates: make(chan string), store: NewStore(dsn)}
}

func (p *Poller) Store() *Store { return p.store }

func (p *Poller) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for range t.C {
		ids, _ := p.store.PendingInvoiceIDs(ctx)
		for _, id := range ids {
			go p.watch(ctx, id)
		}
	}
}

func (p *Poller) watch(ctx context.Context, id string) {
	status, err := p.store.FetchStatus(ctx, id)
	if err != nil {
		return
	}
	p.updates <- id + ":" + status
}
""",
    "internal/invoice/store.go": """package invoice

import "context"

type Store struct{ dsn string }

func NewStore(dsn string) *Store { return &Store{dsn: dsn} }

func (s *Store) PendingInvoiceIDs(ctx context.Context) ([]string, error) { return nil, nil }

func (s *Store) FetchStatus(ctx context.Context, id string) (string, error) { return "open", nil }

// ApplyPayment locks the invoice row, then the customer balance row.
func (s *Store) ApplyPayment(ctx context.Context, invoiceID, customerID string, cents int64) error {
	return nil
}

// ApplyCredit locks the customer balance row, then every open invoice of the customer.
func (s *Store) ApplyCredit(ctx context.Context, customerID string, cents int64) error {
	return nil
}
""",
    "internal/invoice/invoice_test.go": """package invoice

import "testing"

func TestTotalWithTax(t *testing.T) {
	inv := &Invoice{Lines: []Line{{Quantity: 3, UnitPrice: 19.99}}, TaxRate: 0.19}
	if got := inv.Total(); got != 71.36 {
		t.Fatalf("Total() = %v, want 71.36", got)
	}
}
""",
    "internal/webhook/stripe.go": """package webhook

import (
	"encoding/json"
	"net/http"

	"github.com/acme/billing-service/internal/invoice"
)

type event struct {
	ID   string          `json:"id"`
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

func Handler(store *invoice.Store) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var ev event
		if err := json.NewDecoder(r.Body).Decode(&ev); err != nil {
			http.Error(w, "bad payload", http.StatusBadRequest)
			return
		}
		if ev.Type == "invoice.paid" {
			_ = handleInvoicePaid(r.Context(), store, ev)
		}
		w.WriteHeader(http.StatusOK)
	}
}
""",
    "internal/stripeclient/client.go": """package stripeclient

import (
	"context"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/client"
)

type Client struct{ api *client.API }

func New(key string) *Client {
	c := &client.API{}
	c.Init(key, nil)
	return &Client{api: c}
}

func (c *Client) FetchInvoice(ctx context.Context, id string) (*stripe.Invoice, error) {
	return c.api.Invoices.Get(id, nil)
}
""",
    "migrations/0011_create_invoices.up.sql": """CREATE TABLE invoices (
    id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    stripe_invoice_id TEXT UNIQUE,
    total_cents BIGINT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
);
""",
    "migrations/0012_add_invoice_currency.up.sql": """ALTER TABLE invoices ADD COLUMN currency CHAR(3) NOT NULL;
""",
    "Dockerfile": """FROM golang:1.21-alpine AS builder
ENV GOTOOLCHAIN=local
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -o /out/billing ./cmd/billing

FROM alpine:3.19
COPY --from=builder /out/billing /usr/local/bin/billing
ENTRYPOINT ["billing"]
""",
    "Makefile": """test:
\tgo test ./...

migrate:
\tmigrate -path migrations -database "$(DATABASE_URL)" up
""",
}

WEB_DASHBOARD: dict[str, str] = {
    "README.md": "# web-dashboard\n\nCustomer-facing analytics dashboard (React + Vite).\n",
    "package.json": """{
  "name": "web-dashboard",
  "private": true,
  "version": "2.4.0",
  "type": "module",
  "scripts": {
    "dev": "vite",
    "build": "tsc -b && vite build",
    "test": "vitest run",
    "e2e": "playwright test"
  },
  "dependencies": {
    "react": "18.3.1",
    "react-dom": "18.3.1",
    "recharts": "2.12.7",
    "i18next": "23.11.5",
    "react-i18next": "14.1.2"
  },
  "devDependencies": {
    "@playwright/test": "1.44.1",
    "typescript": "5.4.5",
    "vite": "5.2.12",
    "vitest": "1.6.0"
  }
}
""",
    "tsconfig.json": """{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ESNext",
    "moduleResolution": "bundler",
    "jsx": "react-jsx",
    "strict": true,
    "baseUrl": ".",
    "paths": { "@/*": ["src/*"] }
  },
  "include": ["src"]
}
""",
    "vite.config.ts": """import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

export default defineConfig({
  plugins: [react()],
  server: { port: 5173 },
})
""",
    "src/lib/growth.ts": """export function growthRate(previous: number, current: number): number {
  return (current - previous) / previous
}

export function formatGrowth(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`
}
""",
    "src/lib/format.ts": """export function formatMoney(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`
}
""",
    "src/components/RevenueChart.tsx": """import { LineChart, Line, XAxis, YAxis, Tooltip } from 'recharts'
import { formatMoney } from '@/lib/format'
import { growthRate, formatGrowth } from '@/lib/growth'

type Point = { month: string; revenueCents: number }

export function RevenueChart({ points }: { points: Point[] }) {
  const first = points[0]?.revenueCents ?? 0
  const last = points[points.length - 1]?.revenueCents ?? 0
  return (
    <div className="revenue-chart">
      <h3>Revenue <small>{formatGrowth(growthRate(first, last))}</small></h3>
      <LineChart width={640} height={280} data={points}>
        <XAxis dataKey="month" />
        <YAxis tickFormatter={(v) => formatMoney(v)} />
        <Tooltip formatter={(v: number) => formatMoney(v)} />
        <Line type="monotone" dataKey="revenueCents" stroke="#3b82f6" />
      </LineChart>
    </div>
  )
}
""",
    "src/auth/session.ts": """const REFRESH_KEY = 'dash.refreshToken'

export function saveRefreshToken(token: string): void {
  localStorage.setItem(REFRESH_KEY, token)
}

export function loadRefreshToken(): string | null {
  return localStorage.getItem(REFRESH_KEY)
}

export async function refreshAccessToken(): Promise<string> {
  const res = await fetch('/api/auth/refresh', {
    method: 'POST',
    body: JSON.stringify({ refreshToken: loadRefreshToken() }),
  })
  if (res.status === 401) {
    window.location.assign('/login')
  }
  const body = await res.json()
  return body.accessToken
}
""",
    "src/i18n/index.ts": """import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import en from './en.json'

i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
})

export default i18n
""",
    "src/i18n/en.json": """{
  "revenue": "Revenue",
  "customers": "Customers",
  "churn": "Churn",
  "signIn": "Sign in",
  "export": "Export CSV"
}
""",
}

INFRA_DEPLOY: dict[str, str] = {
    "README.md": "# infra-deploy\n\n部署脚本、Kubernetes 清单、Helm values 和 Terraform。\n",
    "deploy/deploy.sh": """#!/usr/bin/env bash
# Usage: deploy/deploy.sh <staging|prod>
set -euo pipefail
ENV="${1:?usage: deploy.sh <staging|prod>}"
kubectl --context "$ENV" apply -f k8s/
helm upgrade --install gateway helm/gateway -n "$ENV" -f "helm/gateway/values-$ENV.yaml"
""",
    "k8s/ingress.yaml": """apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: gateway
  annotations:
    kubernetes.io/ingress.class: nginx
spec:
  rules:
    - host: api.example.com
      http:
        paths:
          - path: /
            backend:
              serviceName: gateway
              servicePort: 8080
""",
    "nginx/nginx.conf": """worker_processes auto;
events { worker_connections 1024; }
http {
    server {
        listen 443 ssl;
        server_name dashboard.example.com;
        ssl_certificate     /etc/nginx/tls/tls.crt;
        ssl_certificate_key /etc/nginx/tls/tls.key;
        root /usr/share/nginx/html;
        location / {
            try_files $uri /index.html;
        }
    }
}
""",
    "helm/gateway/values-prod.yaml": """replicaCount: 4
image:
  repository: registry.example.com/api-gateway
  tag: "0.9.2"
resources:
  limits: { cpu: "1", memory: 512Mi }
""",
    "helm/gateway/values-staging.yaml": """replicaCount: 1
image:
  repository: registry.example.com/api-gateway
  tag: "0.9.2-rc1"
""",
    "terraform/backend.tf": """terraform {
  backend "s3" {
    bucket         = "acme-tf-state"
    key            = "platform/prod.tfstate"
    region         = "eu-central-1"
    dynamodb_table = "acme-tf-locks"
  }
}
""",
    "terraform/main.tf": """module "vpc" {
  source = "./modules/vpc"
  cidr   = "10.40.0.0/16"
}
""",
    ".gitlab-ci.yml": """stages: [plan, apply]

plan:
  stage: plan
  script:
    - terraform -chdir=terraform init -input=false
    - terraform -chdir=terraform plan -input=false -out=plan.tfplan
""",
    "cert-manager/certificate.yaml": """apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: api-tls
  namespace: prod
spec:
  secretName: api-tls
  dnsNames: [api.example.com]
  issuerRef:
    name: letsencrypt-prod
    kind: ClusterIssuer
""",
    "requirements.txt": "ansible==9.5.1\nrequests==2.31.0\nurllib3==2.2.1\nkubernetes==29.0.0\nboto3==1.34.100\n",
}

PROJECTS: dict[str, dict[str, str]] = {
    "api-gateway": API_GATEWAY,
    "billing-service": BILLING_SERVICE,
    "web-dashboard": WEB_DASHBOARD,
    "infra-deploy": INFRA_DEPLOY,
}
