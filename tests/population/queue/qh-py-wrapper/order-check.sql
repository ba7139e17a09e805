-- order-check.sql: rows of `processed` whose seq is duplicated within its order_no,
-- or that are followed by a hole (the next larger seq of the order is not seq + 1).
-- A clean ledger gives 0 rows.
-- (SQLite lets WHERE use the column aliases of the SELECT list.)
SELECT p.order_no,
       p.seq,
       (SELECT COUNT(*) FROM processed d
         WHERE d.order_no = p.order_no AND d.seq = p.seq)  AS copies,
       (SELECT MIN(n.seq) FROM processed n
         WHERE n.order_no = p.order_no AND n.seq > p.seq)  AS next_seq
FROM processed AS p
WHERE copies > 1
   OR next_seq - p.seq > 1
ORDER BY p.order_no, p.seq;
