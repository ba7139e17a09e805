-- (a) duplicate seq: a second row with the same order_no and seq
SELECT a.order_no, a.seq, 'duplicate' AS problem
FROM processed a
JOIN processed b ON b.order_no = a.order_no AND b.seq = a.seq AND b.rowid > a.rowid
UNION
-- (b) missing seq: a seq below the order's max whose successor is absent
SELECT a.order_no, a.seq + 1, 'missing'
FROM processed a
WHERE a.seq < (SELECT MAX(x.seq) FROM processed x WHERE x.order_no = a.order_no)
  AND NOT EXISTS (SELECT 1 FROM processed y WHERE y.order_no = a.order_no AND y.seq = a.seq + 1);
