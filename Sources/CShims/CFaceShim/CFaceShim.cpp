// OpenCV's CascadeClassifier behind the C interface in CFaceShim.h. Every C++ exception stops
// here and becomes an error string: none may unwind into Swift.
#include "CFaceShim.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <vector>

struct vf_face_detector {
    cv::CascadeClassifier cascade;
    std::mutex lock;
};

namespace {
void explain(char *error, size_t size, const char *what) {
    if (error && size > 0) std::snprintf(error, size, "%s", what);
}
}

vf_face_detector *vf_face_detector_open(const char *path, char *error, size_t error_size) {
    try {
        auto *detector = new vf_face_detector();
        if (!detector->cascade.load(path) || detector->cascade.empty()) {
            delete detector;
            explain(error, error_size, "not a cascade OpenCV can load");
            return nullptr;
        }
        return detector;
    } catch (const std::exception &e) {
        explain(error, error_size, e.what());
    } catch (...) {
        explain(error, error_size, "unknown failure while loading the cascade");
    }
    return nullptr;
}

void vf_face_detector_close(vf_face_detector *detector) { delete detector; }

int vf_face_detector_find(vf_face_detector *detector, const uint8_t *pixels, int width, int height, int channels,
                          int stride, double scale, int min_side, double scale_step, int min_votes,
                          vf_face *out, int capacity, char *error, size_t error_size) {
    const bool shaped = width > 0 && height > 0 && (channels == 1 || channels == 3 || channels == 4)
        && stride >= width * channels;
    if (!detector || !pixels || !shaped || !(scale > 0 && scale <= 1) || !(scale_step > 1) || min_side < 1
        || min_votes < 1 || capacity < 0) {
        explain(error, error_size, "invalid arguments");
        return -1;
    }
    try {
        // The picture is only read: the Mat wraps the caller's bytes without copying.
        const cv::Mat picture(height, width, CV_8UC(channels), const_cast<uint8_t *>(pixels),
                              static_cast<size_t>(stride));
        cv::Mat grey;
        if (channels == 1) grey = picture;
        else cv::cvtColor(picture, grey, channels == 3 ? cv::COLOR_RGB2GRAY : cv::COLOR_RGBA2GRAY);
        cv::Mat small;
        if (scale < 1) {
            const cv::Size size(std::max(1, static_cast<int>(width * scale + 0.5)),
                                std::max(1, static_cast<int>(height * scale + 0.5)));
            cv::resize(grey, small, size, 0, 0, cv::INTER_AREA);
        } else {
            small = grey;
        }
        const double back_x = static_cast<double>(width) / small.cols, back_y = static_cast<double>(height) / small.rows;
        std::vector<cv::Rect> boxes;
        std::vector<int> votes;
        {
            std::lock_guard<std::mutex> guard(detector->lock);
            detector->cascade.detectMultiScale(small, boxes, votes, scale_step, min_votes, 0,
                                               cv::Size(min_side, min_side));
        }
        const int found = static_cast<int>(boxes.size());
        for (int i = 0; i < found && i < capacity; ++i) {
            out[i].x = boxes[i].x * back_x;
            out[i].y = boxes[i].y * back_y;
            out[i].width = boxes[i].width * back_x;
            out[i].height = boxes[i].height * back_y;
            out[i].votes = i < static_cast<int>(votes.size()) ? votes[i] : min_votes;
        }
        return found;
    } catch (const std::exception &e) {
        explain(error, error_size, e.what());
    } catch (...) {
        explain(error, error_size, "unknown failure while searching for faces");
    }
    return -1;
}
