-- Problems in seq numbering per order_no. Clean ledger -> no rows.
WITH numbered AS (
    SELECT order_no,
           seq,
           ROW_NUMBER() OVER (PARTITION BY order_no ORDER BY seq)               AS rn,
           LEAD(seq)    OVER (PARTITION BY order_no ORDER BY seq)               AS next_seq
    FROM processed
)
SELECT order_no, seq, next_seq,
       CASE WHEN seq IS NULL THEN 'null seq'
            WHEN next_seq = seq THEN 'duplicate seq'
            ELSE 'missing seq between ' || seq || ' and ' || next_seq END AS problem
FROM numbered
WHERE seq IS NULL OR next_seq = seq OR next_seq > seq + 1;
