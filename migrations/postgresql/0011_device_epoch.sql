-- Device cookies are signed with the account's devices_epoch: a password
-- change and "log out everywhere" raise it, so every browser the account
-- trusted before is a stranger again to the failure limit of its name.
ALTER TABLE users ADD COLUMN devices_epoch BIGINT NOT NULL DEFAULT 0;
