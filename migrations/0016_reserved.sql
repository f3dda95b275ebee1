-- A number kept for a migration of another change being written at the
-- same time; it changes nothing. The change that takes the number
-- replaces this file with its own.
SELECT 1 WHERE 1 = 0;
