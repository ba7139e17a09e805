-- For each order: if seq is 1..n style without repeats and without holes, then
-- the number of rows equals the span of seq values (max - min + 1).
-- Too many rows for the span  -> some seq is duplicated.
-- Too few rows for the span   -> some seq is missing.
-- Any NULL seq is reported as well.
SELECT order_no,
       COUNT(*)                   AS n_rows,
       MIN(seq)                   AS first_seq,
       MAX(seq)                   AS last_seq,
       MAX(seq) - MIN(seq) + 1    AS span,
       COUNT(*) - COUNT(seq)      AS null_seqs
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> MAX(seq) - MIN(seq) + 1
    OR COUNT(seq) <> COUNT(*);
