.mode list
.headers off
.output /root/q/dup.txt
SELECT DISTINCT msg_id FROM ignored_duplicate ORDER BY msg_id;
.output /root/q/error.csv
SELECT 'file,reason';
SELECT source_file || ',' || reason FROM (SELECT DISTINCT source_file, reason FROM rejected ORDER BY source_file);
.output stdout
