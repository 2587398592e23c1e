-- Rate-limit counters are ephemeral: no WAL, so counting a request costs no fsync. Lost on a crash, harmlessly.
ALTER TABLE "rate_limits" SET UNLOGGED;
