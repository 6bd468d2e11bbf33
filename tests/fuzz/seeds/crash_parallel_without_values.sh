parallel rm {| ; ls | parallel -j2 rm -rf {}
